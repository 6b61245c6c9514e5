"""The report's plots, drawn with matplotlib's Agg backend (no display) into PNG bytes. One colour per edge label and
per dataset verdict, defined here once and used by every plot, the HTML page and the PDF.

Colours are the Okabe-Ito palette (Okabe & Ito 2008, "Color Universal Design"), told apart with any of the common
colour-vision deficiencies: blue FOUNDATIONAL, green CURRENT, orange DECLINING, vermillion SUPERSEDED, grey
UNVERIFIED; the verdicts take the label of the same meaning's colour.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from recon_assets.evaluation.measure import CONDITIONS, MEASURES, OFFLINE, ONLINE
from recon_assets.reliability.labels import CURRENT, DECLINING, FOUNDATIONAL, LABELS, SUPERSEDED, UNVERIFIED
from recon_assets.verdicts.critic import CONTRADICTED, FORCED_PASS, INSUFFICIENT, PASS, STALE

LABEL_COLOURS = {
    FOUNDATIONAL: "#0072B2", CURRENT: "#009E73", DECLINING: "#E69F00", SUPERSEDED: "#D55E00", UNVERIFIED: "#999999",
}
VERDICT_COLOURS = {
    PASS: LABEL_COLOURS[CURRENT], STALE: LABEL_COLOURS[DECLINING], CONTRADICTED: LABEL_COLOURS[SUPERSEDED],
    INSUFFICIENT: LABEL_COLOURS[UNVERIFIED], FORCED_PASS: "#56B4E9",
}
# The evaluation's rates the plot shows against the base rate, in MEASURES order: base_rate and labelled_prevalence are
# the reference lines; roc_auc is not a rate.
REFERENCE_MEASURES = ("base_rate", "labelled_prevalence")
PLOTTED_RATES = tuple(m for m in MEASURES if m not in (*REFERENCE_MEASURES, "roc_auc"))
# Why a condition has no rate at all: the online rates count only the cases with an OpenAlex record, and with the
# default offline OpenAlex no case has one; a KG holding none of the labelled cases leaves both conditions empty.
NOT_MEASURED_WHY = {ONLINE: "no labelled I or F case has a citation record as of as_of", OFFLINE: "no labelled case is an edge of this KG"}
DPI = 110
RELIABILITY_BIN = 0.05


def _pyplot():
    """matplotlib's pyplot on the Agg backend (no display, no GUI toolkit; the same on a server and in CI), imported
    when a plot is drawn: loading the definitions (each code server and run worker does) needs no pyplot."""
    import matplotlib

    matplotlib.use("Agg")  # before pyplot
    import matplotlib.pyplot as plt

    return plt


def label_distribution_png(label_counts: pd.DataFrame) -> bytes:
    """Horizontal stacked bars: scored edges per research area, one segment per label (LABEL_COLOURS).

    Args:
        label_counts: research_area, label, edges (`recon_assets/report/sql/report_label_distribution.sql`).

    Returns:
        PNG bytes; an empty table gives a figure saying 'no scored edge'.
    """
    wide = label_counts.pivot_table(index="research_area", columns="label", values="edges", aggfunc="sum", fill_value=0)
    wide = wide.reindex(columns=list(LABELS), fill_value=0)
    wide = wide.loc[wide.sum(axis=1).sort_values().index]
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(8, 0.35 * max(len(wide), 3) + 1.4))
    left = np.zeros(len(wide))
    for label in LABELS:
        values = wide[label].to_numpy(dtype=float)
        axes.barh(wide.index, values, left=left, color=LABEL_COLOURS[label], label=label)
        left += values
    axes.set_xlabel("scored Dataset→Publication edges")
    axes.set_title("Labels per research area")
    _no_data_note(axes, wide.empty, "no scored edge")
    axes.legend(loc="lower right", fontsize="small")
    return _png(figure)


def reliability_histogram_png(
    reliabilities: pd.DataFrame, superseded_bar: float | None = None, reliable_bar: float | None = None
) -> bytes:
    """Histogram of edge reliability in bins of 0.05 over [0, 1], stacked by label (LABEL_COLOURS).

    Args:
        reliabilities: reliability in [0, 1] and label per edge (`recon_assets/report/sql/report_reliabilities.sql`).
        superseded_bar: the SUPERSEDED reliability threshold the edges were scored with, drawn as a dashed line.
        reliable_bar: the reliability from which the dataset verdicts counted an edge as reliable evidence
            (VerdictRules.reliable), drawn as a dotted line: a new user read the two bars as one.

    Returns:
        PNG bytes.
    """
    bins = np.linspace(0.0, 1.0, round(1 / RELIABILITY_BIN) + 1)
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(8, 3.6))
    present = [label for label in LABELS if (reliabilities["label"] == label).any()]
    axes.hist(
        [reliabilities.loc[reliabilities["label"] == label, "reliability"].to_numpy(dtype=float) for label in present] or [[]],
        bins=bins, stacked=True, color=[LABEL_COLOURS[label] for label in present] or None, label=present or None,
    )
    if superseded_bar is not None:
        axes.axvline(superseded_bar, color="black", linestyle="--", linewidth=1, label=f"SUPERSEDED bar {superseded_bar:.2f}")
    if reliable_bar is not None:
        axes.axvline(reliable_bar, color="black", linestyle=":", linewidth=1, label=f"reliable-evidence bar {reliable_bar:.2f} (verdicts)")
    axes.set_xlim(0, 1)
    axes.set_xlabel("reliability")
    axes.set_ylabel("edges")
    axes.set_title("Reliability of every scored edge")
    _no_data_note(axes, reliabilities.empty, "no scored edge")
    if present or superseded_bar is not None or reliable_bar is not None:
        axes.legend(fontsize="small")
    return _png(figure)


def evaluation_png(evaluation: pd.DataFrame) -> bytes:
    """The default setting's rates on the labelled cases, each with its 95 % Wilson interval, against the base rate
    (all scored edges flagged) and the labelled prevalence (DOMAIN.md: "every rate is reported with its base rate"):
    one panel per condition (online, offline); a rate not measured (0 cases) is left out and said so on the axis, a
    condition with no rate measured says so and why (NOT_MEASURED_WHY) across its panel.

    Args:
        evaluation: condition, measure, value, ci_low, ci_high (`recon_assets/report/sql/report_evaluation.sql`).

    Returns:
        PNG bytes.
    """
    plt = _pyplot()
    from matplotlib.ticker import PercentFormatter

    figure, panels = plt.subplots(1, len(CONDITIONS), figsize=(10, 4.6), sharey=True)
    panels = np.atleast_1d(panels)
    for axes, condition in zip(panels, CONDITIONS):
        rows = evaluation[evaluation["condition"] == condition].set_index("measure")
        rates = rows.reindex(list(PLOTTED_RATES))
        measured = rates["value"].notna().to_numpy()
        values = rates["value"].fillna(0).to_numpy(dtype=float)
        errors = np.vstack([values - rates["ci_low"].fillna(0), rates["ci_high"].fillna(0) - values]).clip(min=0)
        positions = np.arange(len(PLOTTED_RATES))
        axes.barh(positions[measured], values[measured], xerr=errors[:, measured], color="#4D4D4D", capsize=3)
        if measured.any():
            for position in positions[~measured]:
                axes.text(0.01, position, "not measured (0 cases)", va="center", fontsize="x-small", color="#666666")
        else:
            axes.text(0.5, 0.5, f"not measured\n({NOT_MEASURED_WHY[condition]})", transform=axes.transAxes,
                      ha="center", va="center", color="#444444", bbox={"facecolor": "white", "edgecolor": "#999999"})
        for measure, style in zip(REFERENCE_MEASURES, ("--", ":")):
            value = rows["value"].get(measure)
            if value is not None and not pd.isna(value):
                axes.axvline(value, color=LABEL_COLOURS[SUPERSEDED] if measure == "base_rate" else "black",
                             linestyle=style, linewidth=1.2, label=f"{measure.replace('_', ' ')} {value:.0%}")
        axes.set_yticks(positions, [measure.replace("_", " ") for measure in PLOTTED_RATES])
        axes.set_xlim(0, 1)
        axes.xaxis.set_major_formatter(PercentFormatter(1.0))
        axes.set_title(f"{condition}")
        if axes.get_legend_handles_labels()[0]:
            axes.legend(fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, -0.1), ncols=2, frameon=False)
    panels[0].invert_yaxis()  # the axes are shared: inverted once, MEASURES order reads top-down
    figure.suptitle("Rates on the labelled cases (default setting) against the base rate")
    return _png(figure)


def _no_data_note(axes, empty: bool, text: str) -> None:
    if empty:
        axes.text(0.5, 0.5, text, transform=axes.transAxes, ha="center", va="center", color="#666666")


def _png(figure) -> bytes:
    """The figure as PNG bytes, closed afterwards (pyplot keeps every open figure alive)."""
    buffer = io.BytesIO()
    try:
        figure.tight_layout()
        figure.savefig(buffer, format="png", dpi=DPI)
    finally:
        _pyplot().close(figure)
    return buffer.getvalue()
