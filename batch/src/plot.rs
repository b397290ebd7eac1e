//! Pictures of record files (`report --plot DIR`, and inlined by `report --html FILE`): SVG charts drawn
//! with plotters' SVG backend only, so nothing needs system fonts or a graphics library (text is left to
//! the SVG viewer's sans-serif).

use crate::compare::{Comparison, Pair};
use crate::record::{Record, Status};
use anyhow::Context;
use plotters::chart::MeshStyle;
use plotters::coord::combinators::IntoLogRange;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const SIZE: (u32, u32) = (720, 440);
/// One colour a run, in order.
const COLOURS: [RGBColor; 4] =
    [RGBColor(45, 93, 123), RGBColor(224, 122, 47), RGBColor(76, 145, 65), RGBColor(150, 60, 140)];
const FONT: &str = "sans-serif";
/// Font sizes (plotters' units; an SVG viewer shows them about a fifth smaller): titles, axis names, and
/// tick labels and legends, large enough to read where the chart is shown at its own size.
const TITLE: u32 = 24;
const AXIS: u32 = 18;
const LABEL: u32 = 16;
/// The right margin: room for the last tick label, which is centred on the end of the axis.
const RIGHT: u32 = 40;
/// Tick labels an axis has at most: the same number given to plotters and used to find the labels' style.
const LABELS: usize = 10;

/// A run to draw: its name and records.
pub struct Run<'a> {
    /// The run's name in legends and titles.
    pub name: String,
    /// Its records.
    pub records: &'a [Record],
}

fn solved<'a>(run: &'a Run) -> impl Iterator<Item = &'a Record> + 'a {
    run.records.iter().filter(|r| r.status == Status::Solved)
}

fn err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("drawing: {e}")
}

/// The labels of a log axis over `range`, all in one style: its ticks are powers of ten, written out
/// (`1,000`) when the whole axis lies within 1 to a million, else all as `1e-5`, `1e7` (never `1000000`
/// beside `1e7`).
fn log_ticks(range: &std::ops::Range<f64>) -> impl Fn(&f64) -> String {
    let written_out = range.start >= 1.0 && range.end <= 1e6;
    move |v: &f64| {
        if written_out {
            cli_common::units::thousands(v.round() as u64)
        } else {
            format!("1e{}", v.log10().round())
        }
    }
}

/// The labels of a linear axis over `range`, all with the same number of decimals: as many as the finest
/// of the ticks plotters puts on it needs (`0.0000`, `0.0005`, `0.0010`, not `0.0`, `0.0005`, `0.001`);
/// values of ten million and more as `1.5e7`.
fn linear_ticks(range: &std::ops::Range<f64>) -> impl Fn(&f64) -> String {
    let ticks = RangedCoordf64::from(range.clone()).key_points(LABELS);
    let huge = ticks.iter().any(|v| v.abs() >= 1e7);
    // Nine decimals at most, which rounds away the float noise of the ticks' steps (0.30000000000000004).
    let decimals = |v: &f64| format!("{v:.9}").trim_end_matches('0').split_once('.').map_or(0, |(_, d)| d.len());
    let digits = ticks.iter().map(decimals).max().unwrap_or(0);
    move |v: &f64| if huge { format!("{v:e}") } else { format!("{v:.digits$}") }
}

/// The powers of ten a log axis may span: plotters steps a log axis' ticks by multiplying from its start to
/// its end, which never ends if the end is infinite (10^309) or the start is zero (10^-324), and takes a step
/// a power of ten while the span is over usize::MAX powers (its ratio infinite). Any finite value can be
/// recorded, so the axis is kept within these, and a value beyond is drawn at its edge ([`on_axis`]).
const LOG_EXPONENTS: std::ops::RangeInclusive<i32> = -150..=150;

/// A log axis range covering `values` (positive ones), rounded out to powers of ten, within
/// [`LOG_EXPONENTS`].
fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) =
        values.filter(|v| *v > 0.0 && v.is_finite()).fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo > hi {
        return 1.0..10.0;
    }
    let (min, max) = (*LOG_EXPONENTS.start(), *LOG_EXPONENTS.end());
    let lo = (lo.log10().floor() as i32).clamp(min, max - 1);
    let hi = (hi.log10().ceil() as i32).clamp(lo + 1, max);
    10f64.powi(lo)..10f64.powi(hi)
}

/// `v` drawn on an axis of `range`: at its nearer edge if beyond it.
fn on_axis(v: f64, range: &std::ops::Range<f64>) -> f64 {
    v.clamp(range.start, range.end)
}

/// Every chart the runs allow, as (file name, SVG text); `steps` is what a length counts (`moves`, `pours`).
pub fn charts(runs: &[Run], steps: &str) -> anyhow::Result<Vec<(&'static str, String)>> {
    let mut all = Vec::new();
    let mut chart = |name, draw: &dyn Fn(&mut String) -> anyhow::Result<()>| {
        let mut svg = String::new();
        draw(&mut svg)?;
        all.push((name, svg));
        anyhow::Ok(())
    };
    chart("lengths.svg", &|svg| lengths(svg, runs, steps))?;
    chart("time-by-length.svg", &|svg| cost_by_length(svg, runs, steps, "search time (s)", |r| r.seconds))?;
    chart("nodes-by-length.svg", &|svg| cost_by_length(svg, runs, steps, "generated nodes", |r| r.nodes as f64))?;
    chart("solved-by-time.svg", &|svg| solved_over_time(svg, runs))?;
    if let [first, others @ ..] = runs {
        // Each run after the first against the first.
        let compared: Vec<(&Run, Comparison)> =
            others.iter().map(|b| (b, Comparison::new(first.records, b.records))).collect();
        if !compared.is_empty() {
            let nodes = |p: &Pair| (p.nodes.0 as f64, p.nodes.1 as f64);
            chart("compare-nodes.svg", &|svg| {
                against(svg, first, &compared, "generated nodes", |c| c.nodes_ratio, nodes)
            })?;
            chart("compare-time.svg", &|svg| {
                against(svg, first, &compared, "search time (s)", |c| c.seconds_ratio, |p| p.seconds)
            })?;
        }
    }
    Ok(all)
}

/// Draws every chart the runs allow into `dir`, returning the files written.
pub fn plot_all(dir: &Path, runs: &[Run], steps: &str) -> anyhow::Result<Vec<PathBuf>> {
    // A folder that cannot be made is the user's path, as for `--html` and `batch -o`: exit code 2.
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create {}", dir.display()))
        .map_err(cli_common::usage)?;
    charts(runs, steps)?
        .into_iter()
        .map(|(name, svg)| {
            let path = dir.join(name);
            std::fs::write(&path, svg).with_context(|| format!("cannot write {}", path.display()))?;
            Ok(path)
        })
        .collect()
}

/// A histogram of solution lengths, one bar series a run.
fn lengths(svg: &mut String, runs: &[Run], steps: &str) -> anyhow::Result<()> {
    // Lengths as u64: plotters' u32 axes overflow at a length of u32::MAX, which a record can hold.
    let counts: Vec<BTreeMap<u64, u32>> = runs
        .iter()
        .map(|run| {
            let mut m = BTreeMap::new();
            solved(run).filter_map(|r| r.length).for_each(|l| *m.entry(u64::from(l)).or_insert(0) += 1);
            m
        })
        .collect();
    let lo = counts.iter().filter_map(|m| m.keys().next()).min().copied().unwrap_or(0);
    let hi = counts.iter().filter_map(|m| m.keys().last()).max().copied().unwrap_or(1);
    let top = counts.iter().flat_map(|m| m.values()).max().copied().unwrap_or(1);
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Solution lengths", (FONT, TITLE))
        .margin(12)
        .margin_right(RIGHT)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d((lo..hi + 1).into_segmented(), 0..top + top / 10 + 1)
        .map_err(err)?;
    mesh(&mut chart.configure_mesh())
        .x_desc(format!("optimal length ({steps})"))
        .y_desc("instances")
        .draw()
        .map_err(err)?;
    for (i, (run, m)) in runs.iter().zip(&counts).enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let style = if runs.len() == 1 { colour.filled() } else { colour.mix(0.5).filled() };
        // Each run's bars narrower than the one's before, so that equal bars of two runs both show.
        let margin = 2 + 3 * i as u32;
        chart
            .draw_series(Histogram::vertical(&chart).style(style).margin(margin).data(m.iter().map(|(&l, &c)| (l, c))))
            .map_err(err)?
            .label(&run.name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
    }
    legend(&mut chart, runs.len())?;
    root.present().map_err(err)
}

/// The mesh of every chart: as many labels on each axis as [`linear_ticks`] expects, in readable sizes.
fn mesh<'m, 'a, 'b, X: Ranged, Y: Ranged, DB: DrawingBackend>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
) -> &'m mut MeshStyle<'a, 'b, X, Y, DB> {
    mesh.x_labels(LABELS).y_labels(LABELS).label_style((FONT, LABEL)).axis_desc_style((FONT, AXIS))
}

/// `what` with a capital, as a chart's title starts.
fn capitalised(what: &str) -> String {
    let mut chars = what.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The legend naming the runs, when there is more than one.
fn legend<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    runs: usize,
) -> anyhow::Result<()> {
    if runs > 1 {
        chart
            .configure_series_labels()
            .label_font((FONT, LABEL))
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// `cost` of each solved instance against its length, on a log scale.
fn cost_by_length(
    svg: &mut String,
    runs: &[Run],
    steps: &str,
    what: &str,
    cost: fn(&Record) -> f64,
) -> anyhow::Result<()> {
    // Lengths as u64, as in `lengths`.
    let length = |r: &Record| r.length.map(u64::from);
    let lens = runs.iter().flat_map(solved).filter_map(length);
    let (lo, hi) = lens.fold((u64::MAX, 0), |(lo, hi), l| (lo.min(l), hi.max(l)));
    let (lo, hi) = if lo > hi { (0, 1) } else { (lo.saturating_sub(1), hi + 1) };
    let y = log_range(runs.iter().flat_map(solved).map(cost));
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{} by solution length", capitalised(what)), (FONT, TITLE))
        .margin(12)
        .margin_right(RIGHT)
        .x_label_area_size(45)
        .y_label_area_size(90)
        .build_cartesian_2d(lo..hi, y.clone().log_scale())
        .map_err(err)?;
    let ticks = log_ticks(&y);
    mesh(&mut chart.configure_mesh())
        .x_desc(format!("optimal length ({steps})"))
        .y_desc(what)
        .y_label_formatter(&ticks)
        .draw()
        .map_err(err)?;
    for (i, run) in runs.iter().enumerate() {
        let points = solved(run).filter(|r| cost(r) > 0.0).filter_map(|r| Some((length(r)?, on_axis(cost(r), &y))));
        markers(&mut chart, points.collect(), i, &run.name)?;
    }
    legend(&mut chart, runs.len())?;
    root.present().map_err(err)
}

/// Draws `points` of the `run`-th run in its colour and marker: a dot, a ring around it, a cross, a
/// triangle, so that runs on the same points (identical runs) all stay visible.
fn markers<'a, DB: DrawingBackend + 'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    points: Vec<(X::ValueType, Y::ValueType)>,
    run: usize,
    name: &str,
) -> anyhow::Result<()>
where
    X::ValueType: Clone + 'static,
    Y::ValueType: Clone + 'static,
{
    let colour = COLOURS[run % COLOURS.len()];
    let (dot, line) = (colour.mix(0.7).filled(), colour.stroke_width(1));
    macro_rules! series {
        ($shape:ident, $size:expr, $style:expr) => {{
            let style: ShapeStyle = $style;
            chart
                .draw_series(points.into_iter().map(|p| $shape::new(p, $size, style)))
                .map_err(err)?
                .label(name)
                .legend(move |(x, y)| $shape::new((x + 5, y), $size, style));
        }};
    }
    match run % 4 {
        0 => series!(Circle, 3, dot),
        1 => series!(Circle, 6, line),
        2 => series!(Cross, 5, line),
        _ => series!(TriangleMarker, 6, line),
    }
    Ok(())
}

/// Solved instances, counted as they finished: each run's (time, instances solved by then) steps, and
/// what the time axis is. With a `finished` time on every record, the time is wall-clock seconds since
/// the run began (the earliest record's finish less its search time; shards and resumed runs share
/// that clock); records without one (files from before it existed) are taken in file order, one after
/// another, so the time is their search time summed, which leaves out start-up and any parallelism.
fn solved_steps(runs: &[Run]) -> (Vec<Vec<(f64, usize)>>, &'static str) {
    let timed = runs.iter().all(|run| run.records.iter().all(|r| r.finished.is_some()));
    let steps = runs
        .iter()
        .map(|run| {
            let times: Vec<(f64, bool)> = if timed {
                let began = run.records.iter().filter_map(|r| Some(r.finished? - r.seconds)).fold(f64::MAX, f64::min);
                let mut t: Vec<(f64, bool)> = run
                    .records
                    .iter()
                    .filter_map(|r| Some((r.finished? - began, r.status == Status::Solved)))
                    .collect();
                t.sort_by(|a, b| a.0.total_cmp(&b.0));
                t
            } else {
                let mut clock = 0.0;
                run.records
                    .iter()
                    .map(|r| {
                        clock += r.seconds;
                        (clock, r.status == Status::Solved)
                    })
                    .collect()
            };
            let mut solved = 0;
            times
                .into_iter()
                .filter(|&(_, ok)| ok)
                .map(|(t, _)| {
                    solved += 1;
                    (t, solved)
                })
                .collect()
        })
        .collect();
    let axis = if timed {
        "wall-clock time since the run began (s)"
    } else {
        "search time summed in file order (s; the records have no finish times)"
    };
    (steps, axis)
}

/// Instances solved against time, a step line a run.
fn solved_over_time(svg: &mut String, runs: &[Run]) -> anyhow::Result<()> {
    let (steps, axis) = solved_steps(runs);
    // Finite however far apart the records' clocks are, so that plotters' ticks can be stepped through.
    let end = steps.iter().flatten().map(|&(t, _)| t).fold(0.0, f64::max).clamp(1e-3, f64::MAX / 1.02);
    let most = steps.iter().map(Vec::len).max().unwrap_or(0);
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Instances solved over time", (FONT, TITLE))
        .margin(12)
        .margin_right(RIGHT)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..end * 1.02, 0..most + 1)
        .map_err(err)?;
    let ticks = linear_ticks(&(0.0..end * 1.02));
    mesh(&mut chart.configure_mesh())
        .x_desc(axis)
        .y_desc("instances solved")
        .x_label_formatter(&ticks)
        .draw()
        .map_err(err)?;
    for (i, (run, points)) in runs.iter().zip(&steps).enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let line: Vec<(f64, usize)> = std::iter::once((0.0, 0))
            .chain(points.iter().flat_map(|&(t, k)| [(t.min(end), k - 1), (t.min(end), k)]))
            .collect();
        // The first run solid, the others dashed, each its own dash: identical runs' lines both show.
        let style = colour.stroke_width(2);
        let series = match i {
            0 => chart.draw_series(LineSeries::new(line, style)),
            _ => chart.draw_series(DashedLineSeries::new(line, 4 + 4 * i as i32, 2 + 2 * i as i32, style)),
        };
        series
            .map_err(err)?
            .label(&run.name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 12, y)], colour.stroke_width(2)));
    }
    legend(&mut chart, runs.len())?;
    root.present().map_err(err)
}

/// Each instance both runs solved as a point (the first run's cost, the other's), log-log, over the
/// diagonal: points below it are instances the other run did more cheaply. With several other runs, a
/// series each, in its colour and marker (as in the other charts), its mean ratio in the legend. `what`: the
/// cost's name; `ratio`: its mean ratio in a comparison.
fn against(
    svg: &mut String,
    a: &Run,
    compared: &[(&Run, Comparison)],
    what: &str,
    ratio: fn(&Comparison) -> Option<f64>,
    cost: fn(&Pair) -> (f64, f64),
) -> anyhow::Result<()> {
    let points: Vec<Vec<(f64, f64)>> =
        compared.iter().map(|(_, c)| c.pairs.iter().map(cost).filter(|&(x, y)| x > 0.0 && y > 0.0).collect()).collect();
    let range = log_range(points.iter().flatten().flat_map(|&(x, y)| [x, y]));
    let root = SVGBackend::with_string(svg, (560, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    // The mean as the comparison's text gives it, so that the figure reads the same in both.
    let mean = |c: &Comparison| {
        ratio(c).map_or(String::new(), |r| format!(" (geometric mean {})", crate::compare::ratio_text(r)))
    };
    let caption = match compared {
        [(b, c)] => format!("{}: {} / {}{}", capitalised(what), b.name, a.name, mean(c)),
        _ => format!("{}: each run / {}", capitalised(what), a.name),
    };
    let y_desc = match compared {
        [(b, _)] => format!("{} ({what})", b.name),
        _ => format!("each run ({what})"),
    };
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, (FONT, LABEL + 4))
        .margin(12)
        .margin_right(RIGHT)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d(range.clone().log_scale(), range.clone().log_scale())
        .map_err(err)?;
    let ticks = log_ticks(&range);
    mesh(&mut chart.configure_mesh())
        .x_desc(format!("{} ({what})", a.name))
        .y_desc(y_desc)
        .x_label_formatter(&ticks)
        .y_label_formatter(&ticks)
        .draw()
        .map_err(err)?;
    chart
        .draw_series(LineSeries::new([(range.start, range.start), (range.end, range.end)], BLACK.mix(0.4)))
        .map_err(err)?;
    for (i, (points, (b, c))) in points.iter().zip(compared).enumerate() {
        let points = points.iter().map(|&(x, y)| (on_axis(x, &range), on_axis(y, &range))).collect();
        // Two runs: one series, as ever, in the first colour; more: each in its run's colour and marker.
        let run = if compared.len() == 1 { 0 } else { i + 1 };
        markers(&mut chart, points, run, &format!("{}{}", b.name, mean(c)))?;
    }
    legend(&mut chart, compared.len())?;
    root.present().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(status: Status, seconds: f64, finished: Option<f64>) -> Record {
        Record { status, seconds, finished, ..Record::default() }
    }

    #[test]
    fn solved_instances_count_up_on_the_clock_of_the_run() {
        // Two searches side by side from t = 100, finishing out of file order; the limit is not counted.
        let records = [
            rec(Status::Solved, 3.0, Some(103.0)),
            rec(Status::Solved, 1.0, Some(101.0)),
            rec(Status::Limit, 5.0, Some(106.0)),
            rec(Status::Solved, 2.5, Some(106.5)),
        ];
        let (steps, axis) = solved_steps(&[Run { name: "a".into(), records: &records }]);
        assert_eq!(steps, [vec![(1.0, 1), (3.0, 2), (6.5, 3)]]);
        assert!(axis.starts_with("wall-clock"));
    }

    #[test]
    fn records_without_finish_times_are_summed_in_file_order() {
        let records =
            [rec(Status::Solved, 3.0, None), rec(Status::Limit, 5.0, None), rec(Status::Solved, 1.0, Some(1.0))];
        let (steps, axis) = solved_steps(&[Run { name: "a".into(), records: &records }]);
        assert_eq!(steps, [vec![(3.0, 1), (9.0, 2)]]);
        assert!(axis.starts_with("search time summed in file order"), "{axis}");
    }

    #[test]
    fn charts_are_svg_text() {
        let records = [rec(Status::Solved, 0.5, Some(10.0))];
        let charts = charts(&[Run { name: "a".into(), records: &records }], "moves").unwrap();
        let names: Vec<&str> = charts.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["lengths.svg", "time-by-length.svg", "nodes-by-length.svg", "solved-by-time.svg"]);
        assert!(charts.iter().all(|(_, svg)| svg.starts_with("<svg") && svg.contains("</svg>")));
        assert!(charts[3].1.contains("wall-clock time since the run began"));
    }

    /// The texts of an SVG chart with their font sizes, in the order drawn.
    fn texts(svg: &str) -> Vec<(f64, String)> {
        svg.split("<text")
            .skip(1)
            .map(|t| {
                let size = t.split("font-size=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().parse().unwrap();
                let body = t.split_once('>').unwrap().1.split("</text>").next().unwrap().trim().to_string();
                (size, body)
            })
            .collect()
    }

    /// Two runs over instances whose costs span 10 to 10^9 nodes and 0.0003 to 0.0047 s: what a chart shows
    /// of them is readable and in one style an axis.
    fn spread_runs() -> (Vec<Record>, Vec<Record>) {
        let run = |scale: u64| -> Vec<Record> {
            (1..=12u32)
                .map(|i| Record {
                    id: i.to_string(),
                    status: Status::Solved,
                    length: Some(20 + i),
                    nodes: scale * 10u64.pow(i.min(9)),
                    seconds: 0.0003 + f64::from(i) * 0.0004,
                    finished: Some(100.0 + f64::from(i) * 0.0004),
                    ..Record::default()
                })
                .collect()
        };
        (run(1), run(3))
    }

    #[test]
    fn labels_are_readable_and_in_one_style_an_axis() {
        let (a, b) = spread_runs();
        let runs = [Run { name: "a".into(), records: &a }, Run { name: "b".into(), records: &b }];
        let charts: BTreeMap<&str, Vec<(f64, String)>> =
            charts(&runs, "pours").unwrap().into_iter().map(|(name, svg)| (name, texts(&svg))).collect();
        for (name, texts) in &charts {
            for (size, text) in texts {
                assert!(*size >= 12.0, "{name}: '{text}' in a {size}-unit font");
            }
        }
        let words = |name: &str| charts[name].iter().map(|(_, t)| t.clone()).collect::<Vec<_>>();
        // A log axis from 10 to 10^10: every power of ten as `1eN`, none written out beside them.
        let nodes = words("nodes-by-length.svg");
        for power in ["1e1", "1e5", "1e9"] {
            assert!(nodes.contains(&power.to_string()), "{nodes:?}");
        }
        assert!(!nodes.iter().any(|t| t == "100" || t == "1000000" || t == "1,000,000"), "{nodes:?}");
        assert!(nodes.contains(&"Generated nodes by solution length".to_string()), "{nodes:?}");
        assert!(nodes.contains(&"optimal length (pours)".to_string()), "{nodes:?}");
        // A linear time axis: every label with as many decimals as the finest needs.
        let time = words("solved-by-time.svg");
        let ticks: Vec<&String> = time.iter().filter(|t| t.starts_with("0.")).collect();
        assert!(ticks.len() >= 4, "{time:?}");
        assert!(ticks.iter().all(|t| t.len() == ticks[0].len()), "{ticks:?}");
        // The mean ratio in the comparison's title is the figure its text gives.
        let c = Comparison::new(&a, &b);
        let title = words("compare-nodes.svg").into_iter().find(|t| t.contains("geometric mean")).unwrap();
        let text = c.text("a", "b");
        let figure = text.lines().find_map(|l| l.strip_prefix("node ratio   ")).unwrap().split(' ').next().unwrap();
        assert!(title.contains(&format!("(geometric mean {figure})")), "{title} / {text}");
    }

    /// Identical runs stay visible: the second's points are rings around the first's dots, its solved line
    /// dashed over the first's solid one, its bars narrower; with three runs the comparisons draw each run
    /// after the first against it, a series and a legend entry each.
    #[test]
    fn identical_runs_stay_visible_and_every_run_is_compared() {
        let (a, _) = spread_runs();
        let runs = [Run { name: "a".into(), records: &a }, Run { name: "b".into(), records: &a }];
        let drawn: BTreeMap<&str, String> = charts(&runs, "moves").unwrap().into_iter().collect();
        let second = "#E07A2F";
        let cost = &drawn["nodes-by-length.svg"];
        assert!(cost.contains("r=\"3\"") && cost.contains("r=\"6\""), "a dot and a ring");
        // Dashed: the second run's line is drawn in many pieces, the first's in one.
        let pieces = |svg: &str, colour: &str| svg.matches(&format!("stroke=\"{colour}\"")).count();
        let solved = &drawn["solved-by-time.svg"];
        assert!(pieces(solved, second) > 5 * pieces(solved, "#2D5D7B").max(1) / 2, "{solved}");
        let bars = &drawn["lengths.svg"];
        let widths: std::collections::BTreeSet<String> = bars
            .split("<rect")
            .skip(1)
            .filter(|r| r.contains("opacity=\"0.5\""))
            .filter_map(|r| r.split("width=\"").nth(1).and_then(|w| w.split('"').next()).map(String::from))
            .collect();
        assert!(widths.len() >= 2, "bars of two widths: {widths:?}");

        let three = [
            Run { name: "bfs".into(), records: &a },
            Run { name: "astar".into(), records: &a },
            Run { name: "ida".into(), records: &a },
        ];
        let charts: BTreeMap<&str, Vec<(f64, String)>> =
            charts(&three, "moves").unwrap().into_iter().map(|(name, svg)| (name, texts(&svg))).collect();
        let words: Vec<&str> = charts["compare-nodes.svg"].iter().map(|(_, t)| t.as_str()).collect();
        assert!(words.contains(&"Generated nodes: each run / bfs"), "{words:?}");
        for run in ["astar (geometric mean 1.000)", "ida (geometric mean 1.000)"] {
            assert!(words.contains(&run), "{words:?}");
        }
    }

    #[test]
    fn a_log_axis_within_a_million_is_written_out() {
        let ticks = log_ticks(&(1.0..1e6));
        assert_eq!([1.0, 1e3, 1e6].map(|v| ticks(&v)), ["1", "1,000", "1,000,000"]);
        let ticks = log_ticks(&(1e-5..1e2));
        assert_eq!([1e-5, 1.0, 1e2].map(|v| ticks(&v)), ["1e-5", "1e0", "1e2"]);
    }

    /// Every chart of any finite figures is drawn, and soon: a search time of 1e305 s beside one of 1e-5 s
    /// used to make plotters step through its log axis forever, as did 1.7e308 s alone.
    #[test]
    fn charts_of_extreme_figures_are_drawn() {
        let extreme = |i: usize, seconds: f64, nodes: u64, length: u32, finished: f64| Record {
            id: i.to_string(),
            status: Status::Solved,
            length: Some(length),
            nodes,
            seconds,
            finished: Some(finished),
            ..Record::default()
        };
        let seconds = [1e305, 1e-5, f64::MAX, 5e-324, 0.0, 1.7e308, 1e-300];
        let a: Vec<Record> = seconds.iter().enumerate().map(|(i, &s)| extreme(i, s, u64::MAX, 0, f64::MAX)).collect();
        let b: Vec<Record> = seconds.iter().rev().enumerate().map(|(i, &s)| extreme(i, s, 1, u32::MAX, 0.0)).collect();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let runs = [Run { name: "a".into(), records: &a }, Run { name: "b".into(), records: &b }];
            let _ = tx.send(charts(&runs, "moves").map(|c| c.len()));
        });
        let drawn = rx.recv_timeout(std::time::Duration::from_secs(60)).expect("the charts are drawn within a minute");
        assert_eq!(drawn.unwrap(), 6);
        for v in [0.0, 5e-324, 1e-300, 1e305, 1.7e308, f64::MAX] {
            let r = log_range(std::iter::once(v).chain([1e-5]));
            assert!(r.start > 0.0 && r.end.is_finite() && (r.end / r.start).is_finite(), "{v}: {r:?}");
        }
    }
}
