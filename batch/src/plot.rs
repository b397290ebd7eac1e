//! Pictures of record files (`solver report --plot DIR`): SVG charts drawn with plotters' SVG backend only,
//! so nothing needs system fonts or a graphics library (text is left to the SVG viewer's sans-serif).

use crate::compare::{Comparison, Pair};
use crate::record::{Record, Status};
use anyhow::Context;
use plotters::coord::combinators::IntoLogRange;
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const SIZE: (u32, u32) = (720, 440);
/// One colour a run, in order.
const COLOURS: [RGBColor; 4] =
    [RGBColor(45, 93, 123), RGBColor(224, 122, 47), RGBColor(76, 145, 65), RGBColor(150, 60, 140)];
const FONT: &str = "sans-serif";

/// A run to draw: its name and records.
pub struct Run<'a> {
    pub name: String,
    pub records: &'a [Record],
}

fn solved<'a>(run: &'a Run) -> impl Iterator<Item = &'a Record> + 'a {
    run.records.iter().filter(|r| r.status == Status::Solved)
}

fn err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("drawing: {e}")
}

/// A log axis label: whole numbers as such, others (and huge ones) as `1e-5`, rounding away the float
/// noise of the axis' powers of ten.
fn tick(v: &f64) -> String {
    if (1.0..1e7).contains(v) {
        format!("{v:.0}")
    } else {
        format!("{v:.0e}")
    }
}

/// A log axis range covering `values` (positive ones), rounded out to powers of ten.
fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = values.filter(|v| *v > 0.0).fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo > hi {
        return 1.0..10.0;
    }
    10f64.powf(lo.log10().floor())..10f64.powf(hi.log10().ceil().max(lo.log10().floor() + 1.0))
}

/// Draws every chart the runs allow into `dir`, returning the files written.
pub fn plot_all(dir: &Path, runs: &[Run]) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut written = Vec::new();
    let mut file = |name: &str| {
        let p = dir.join(name);
        written.push(p.clone());
        p
    };
    lengths(&file("lengths.svg"), runs)?;
    cost_by_length(&file("time-by-length.svg"), runs, "search time (s)", |r| r.seconds)?;
    cost_by_length(&file("nodes-by-length.svg"), runs, "generated nodes", |r| r.nodes as f64)?;
    solved_within(&file("solved-by-time.svg"), runs)?;
    if let [a, b, ..] = runs {
        let c = Comparison::new(a.records, b.records);
        let nodes = |p: &Pair| (p.nodes.0 as f64, p.nodes.1 as f64);
        against(&file("compare-nodes.svg"), (a, b), &c, ("generated nodes", c.nodes_ratio), nodes)?;
        against(&file("compare-time.svg"), (a, b), &c, ("search time (s)", c.seconds_ratio), |p| p.seconds)?;
    }
    Ok(written)
}

/// A histogram of solution lengths, one bar series a run.
fn lengths(path: &Path, runs: &[Run]) -> anyhow::Result<()> {
    let counts: Vec<BTreeMap<u32, u32>> = runs
        .iter()
        .map(|run| {
            let mut m = BTreeMap::new();
            solved(run).filter_map(|r| r.length).for_each(|l| *m.entry(l).or_insert(0) += 1);
            m
        })
        .collect();
    let lo = counts.iter().filter_map(|m| m.keys().next()).min().copied().unwrap_or(0);
    let hi = counts.iter().filter_map(|m| m.keys().last()).max().copied().unwrap_or(1);
    let top = counts.iter().flat_map(|m| m.values()).max().copied().unwrap_or(1);
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Solution lengths", (FONT, 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d((lo..hi + 1).into_segmented(), 0..top + top / 10 + 1)
        .map_err(err)?;
    chart.configure_mesh().x_desc("optimal length (moves)").y_desc("instances").draw().map_err(err)?;
    for (i, (run, m)) in runs.iter().zip(&counts).enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let style = if runs.len() == 1 { colour.filled() } else { colour.mix(0.5).filled() };
        chart
            .draw_series(Histogram::vertical(&chart).style(style).margin(2).data(m.iter().map(|(&l, &c)| (l, c))))
            .map_err(err)?
            .label(&run.name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
    }
    legend(&mut chart, runs.len())?;
    root.present().map_err(err)
}

/// The legend naming the runs, when there is more than one.
fn legend<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    runs: usize,
) -> anyhow::Result<()> {
    if runs > 1 {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// `cost` of each solved instance against its length, on a log scale.
fn cost_by_length(path: &Path, runs: &[Run], what: &str, cost: fn(&Record) -> f64) -> anyhow::Result<()> {
    let lens = runs.iter().flat_map(solved).filter_map(|r| r.length);
    let (lo, hi) = lens.fold((u32::MAX, 0), |(lo, hi), l| (lo.min(l), hi.max(l)));
    let (lo, hi) = if lo > hi { (0, 1) } else { (lo.saturating_sub(1), hi + 1) };
    let y = log_range(runs.iter().flat_map(solved).map(cost));
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{what} by solution length"), (FONT, 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(lo..hi, y.log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("optimal length (moves)")
        .y_desc(what)
        .y_label_formatter(&tick)
        .draw()
        .map_err(err)?;
    for (i, run) in runs.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let points = solved(run).filter(|r| cost(r) > 0.0).filter_map(|r| Some((r.length?, cost(r))));
        chart
            .draw_series(points.map(|p| Circle::new(p, 3, colour.mix(0.7).filled())))
            .map_err(err)?
            .label(&run.name)
            .legend(move |(x, y)| Circle::new((x + 5, y), 3, colour.filled()));
    }
    legend(&mut chart, runs.len())?;
    root.present().map_err(err)
}

/// A cactus plot: how many instances each run solved within t seconds each, against t (log scale).
fn solved_within(path: &Path, runs: &[Run]) -> anyhow::Result<()> {
    let x = log_range(runs.iter().flat_map(solved).map(|r| r.seconds));
    let most = runs.iter().map(|r| solved(r).count()).max().unwrap_or(0);
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Instances solved within a time", (FONT, 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x.clone().log_scale(), 0..most + 1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("search time per instance (s)")
        .y_desc("instances solved")
        .x_label_formatter(&tick)
        .draw()
        .map_err(err)?;
    for (i, run) in runs.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let mut times: Vec<f64> = solved(run).map(|r| r.seconds.max(x.start)).collect();
        times.sort_by(f64::total_cmp);
        let steps = times.iter().enumerate().flat_map(|(k, &t)| [(t, k), (t, k + 1)]);
        chart
            .draw_series(LineSeries::new(std::iter::once((x.start, 0)).chain(steps), colour.stroke_width(2)))
            .map_err(err)?
            .label(&run.name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 12, y)], colour.stroke_width(2)));
    }
    legend(&mut chart, runs.len())?;
    root.present().map_err(err)
}

/// Each instance both runs solved as a point (first run's cost, second's), log-log, over the diagonal:
/// points below it are instances the second run did more cheaply. `what`: the cost's name and mean ratio.
fn against(
    path: &Path,
    (a, b): (&Run, &Run),
    comparison: &Comparison,
    (what, ratio): (&str, Option<f64>),
    cost: fn(&Pair) -> (f64, f64),
) -> anyhow::Result<()> {
    let points: Vec<(f64, f64)> = comparison.pairs.iter().map(cost).filter(|&(x, y)| x > 0.0 && y > 0.0).collect();
    let range = log_range(points.iter().flat_map(|&(x, y)| [x, y]));
    let root = SVGBackend::new(path, (560, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mean = ratio.map_or(String::new(), |r| format!(" (geometric mean {r:.2})"));
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{what}: {} / {}{mean}", b.name, a.name), (FONT, 18))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(range.clone().log_scale(), range.clone().log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(format!("{} ({what})", a.name))
        .y_desc(format!("{} ({what})", b.name))
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .draw()
        .map_err(err)?;
    chart
        .draw_series(LineSeries::new([(range.start, range.start), (range.end, range.end)], BLACK.mix(0.4)))
        .map_err(err)?;
    chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, COLOURS[0].mix(0.7).filled()))).map_err(err)?;
    root.present().map_err(err)
}
