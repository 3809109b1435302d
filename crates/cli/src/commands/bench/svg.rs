//! The benchmark's plot, as hand-written SVG: for each configuration, how many programs it
//! decided (proved safe or found an error in) within a per-program time t, for t from 0 to the
//! time limit (a "cactus" plot: higher and further left is better). Pure text: nothing here
//! touches the file system.

use super::table::Run;
use std::fmt::Write;
use symex_report::html::escape_text as escape;

/// Line colours, one per configuration (repeating with a dash pattern past the palette).
const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 200.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

/// The plot of `runs` for the configurations `configs` (in legend order) over `programs`
/// programs, with the time axis from 0 to `limit_s` seconds.
pub fn decided_over_time(
    title: &str,
    configs: &[String],
    runs: &[Run],
    programs: usize,
    limit_s: f64,
) -> String {
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let limit_s = if limit_s > 0.0 { limit_s } else { 1.0 };
    let y_max = programs.max(1) as f64;
    let x = |t: f64| LEFT + plot_w * (t.min(limit_s) / limit_s);
    let y = |n: f64| TOP + plot_h * (1.0 - n / y_max);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(
        out,
        "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"white\"/>"
    );
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">{}</text>",
        LEFT + plot_w / 2.0,
        escape(title)
    );
    // Axes, ticks and grid.
    for i in 0..=5 {
        let t = limit_s * i as f64 / 5.0;
        let px = x(t);
        let _ = writeln!(
            out,
            "<line x1=\"{px:.1}\" y1=\"{TOP}\" x2=\"{px:.1}\" y2=\"{:.1}\" stroke=\"#ddd\"/>",
            TOP + plot_h
        );
        let _ = writeln!(
            out,
            "<text x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            TOP + plot_h + 16.0,
            trim_number(t)
        );
    }
    for n in y_ticks(programs) {
        let py = y(n as f64);
        let _ = writeln!(
            out,
            "<line x1=\"{LEFT}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\" stroke=\"#ddd\"/>",
            LEFT + plot_w
        );
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{n}</text>",
            LEFT - 6.0,
            py + 4.0
        );
    }
    let _ = writeln!(
        out,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"none\" stroke=\"black\"/>"
    );
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">time per program (s)</text>",
        LEFT + plot_w / 2.0,
        HEIGHT - 12.0
    );
    let _ = writeln!(
        out,
        "<text transform=\"translate(16 {:.1}) rotate(-90)\" text-anchor=\"middle\">programs decided (safe or error found)</text>",
        TOP + plot_h / 2.0
    );
    // One step line per configuration, and its legend entry.
    for (i, config) in configs.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let dash = if i < PALETTE.len() {
            ""
        } else {
            " stroke-dasharray=\"6 3\""
        };
        let mut times: Vec<f64> = runs
            .iter()
            .filter(|r| &r.config == config && r.outcome.decided())
            .map(|r| r.time_ms as f64 / 1000.0)
            .collect();
        times.sort_by(f64::total_cmp);
        let mut points = vec![(x(0.0), y(0.0))];
        for (k, t) in times.iter().enumerate() {
            points.push((x(*t), y(k as f64)));
            points.push((x(*t), y(k as f64 + 1.0)));
        }
        points.push((x(limit_s), y(times.len() as f64)));
        let coords: Vec<String> = points
            .iter()
            .map(|(px, py)| format!("{px:.1},{py:.1}"))
            .collect();
        let _ = writeln!(
            out,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dash} points=\"{}\"/>",
            coords.join(" ")
        );
        let ly = TOP + 10.0 + 18.0 * i as f64;
        let lx = WIDTH - RIGHT + 16.0;
        let _ = writeln!(
            out,
            "<line x1=\"{lx}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>",
            lx + 22.0
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\">{} ({})</text>",
            lx + 28.0,
            ly + 4.0,
            escape(config),
            times.len()
        );
    }
    out.push_str("</svg>\n");
    out
}

/// About five round tick values from 0 to `max`.
fn y_ticks(max: usize) -> Vec<usize> {
    let step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]
        .into_iter()
        .find(|s| max / s <= 5)
        .unwrap_or(max.max(1));
    (0..=max).step_by(step).collect()
}

/// `2.5` as `2.5`, `2.0` as `2`.
fn trim_number(v: f64) -> String {
    let text = format!("{v:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::super::table::Outcome;
    use super::*;

    fn run(config: &str, outcome: Outcome, time_ms: u64) -> Run {
        Run {
            outcome,
            ..Run::rejected(config, "p.uc", time_ms)
        }
    }

    #[test]
    fn one_step_line_per_configuration_counting_decided_runs() {
        let runs = [
            run("plain", Outcome::Safe, 1000),
            run("plain", Outcome::Timeout, 2000),
            run("sub<1>", Outcome::Error, 500),
            run("sub<1>", Outcome::Safe, 1500),
        ];
        let configs = ["plain".to_string(), "sub<1>".to_string()];
        let svg = decided_over_time("set & co", &configs, &runs, 2, 2.0);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("set &amp; co"));
        assert!(svg.contains(">plain (1)</text>"));
        assert!(svg.contains(">sub&lt;1&gt; (2)</text>"));
        // plain: from (0,0) up one step at t = 1 s (x = 60 + 460/2), flat to the limit.
        let plot_w = WIDTH - LEFT - RIGHT;
        let plot_h = HEIGHT - TOP - BOTTOM;
        let mid = LEFT + plot_w / 2.0;
        let bottom = TOP + plot_h;
        let half = TOP + plot_h / 2.0;
        let expected = format!(
            "points=\"{LEFT:.1},{bottom:.1} {mid:.1},{bottom:.1} {mid:.1},{half:.1} {:.1},{half:.1}\"",
            LEFT + plot_w
        );
        assert!(svg.contains(&expected), "{svg}");
    }

    #[test]
    fn ticks_are_round_and_few() {
        assert_eq!(y_ticks(3), [0, 1, 2, 3]);
        assert_eq!(y_ticks(40), [0, 10, 20, 30, 40]);
        assert_eq!(y_ticks(0), [0]);
        assert_eq!(trim_number(2.0), "2");
        assert_eq!(trim_number(2.5), "2.5");
    }
}
