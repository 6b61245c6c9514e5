"""Assets of the `evaluation` group: the method measured on labelled real edges, online and offline, with the
weight and decay ablation ranked by discrimination."""

from datetime import datetime, timezone

import dagster as dg
import pandas as pd

from recon_assets.declarations import ASSET_TABLES
from recon_assets.evaluation.cases import load_cases
from recon_assets.evaluation.measure import HEADLINE, INDEPENDENT, MEASURES, TARGET_STATUSES, comparison_table, evaluate, iter_headline, online_cases, targets_of
from recon_assets.evaluation.metrics import measure_text
from recon_assets.evaluation.pairs import PAIR_MEASURES, evaluate_pairs, judged_on_texts, load_pairs, pipeline_outcomes
from recon_assets.kg.assets import OWNERS
from recon_assets.kg.partitions import research_area_partitions
from recon_assets.reliability.edge_scores import edge_coherence, published_by
from recon_assets.reliability.settings import ScoringSettings
from recon_assets.shared.as_of import AsOfDate
from recon_assets.shared.metadata import table_metadata, written_version
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.verdicts.critic import VerdictRules

RELIABILITY_EVALUATION, DISPUTE_EVALUATION = ASSET_TABLES["reliability_evaluation"], ASSET_TABLES["dispute_evaluation"]


@dg.asset(**RELIABILITY_EVALUATION.asset_arguments(), group_name="evaluation", kinds={"duckdb", "python"}, owners=OWNERS, pool="duckdb")
def reliability_evaluation(context: dg.AssetExecutionContext, store: TableStore, as_of: AsOfDate) -> dg.MaterializeResult:
    """The method measured on labelled real edges (recon_assets/reference/evaluation/labelled_edges.csv, each case
    graded C, F or I by how its label relates to the scorer's inputs; docs/EVALUATION.md): staleness catch, precision
    of flags, foundational false flags, the subgroups that separate the signals, contradiction and retraction catch,
    UNVERIFIED share and the ROC AUC of reliability, each rate with its Wilson interval beside the base rate (all KG
    edges flagged) and the labelled prevalence; per case set (IF the headline, I alone, C apart); online (OpenAlex
    records as stored, over the cases with a citation record as of as_of, `online_cases` of them) and offline (no
    OpenAlex input); for the default and the 198
    settings of the weight and decay ablation, ranked by ROC AUC on the I cases; all cases and the held-out part. Also
    writes reliability_evaluation_baselines (the default beside the lifecycle-only, age-only and flag-everything rules
    on the same cases, with the paired difference and its interval from resampling dataset nodes, and counts per
    node) and reliability_evaluation_cases (every case's outcome and reason under the default, in both conditions). The
    default is what edge_reliability was scored with (its scoring_settings; the most frequent when areas differ) and
    the verdict rules dataset_verdicts used. An edge whose publication came out after as_of's year is left out, as
    scoring leaves it out (`edges_left_out_after_as_of`): its case is reported not found."""
    as_of_date = as_of.for_run(context)
    areas = research_area_partitions.get_partition_keys()
    preview = ["condition", "measure", "value", "numerator", "denominator", "ci_low", "ci_high"]
    with store.connect() as con:
        cases = load_cases()
        scoring = ScoringSettings.model_validate_json(con.most_frequent("edge_reliability", "scoring_settings") or "{}")
        rules = VerdictRules.model_validate_json(con.most_frequent("dataset_verdicts", "verdict_rules") or "{}")
        recent_from = as_of_date.year - scoring.thresholds.recent_citation_years
        edges = con.query("edges_in_research_areas", [areas, as_of_date.year, recent_from])
        existing = published_by(edges, as_of_date)  # as scoring does: an edge published after as_of did not exist yet
        edges, after_as_of = edges[existing], int((~existing).sum())
        pairs = con.query("area_judgements", [areas])
        contradicting = con.query("contradicting_pairs", [areas, as_of_date])
        disputes = con.query("dataset_disputes", [areas, as_of_date.year])
        if edges.empty:
            context.log.warning("the KG has no scored Dataset→Publication edge: every labelled case is reported not found, no measure taken")
        result = evaluate(
            edge_coherence(edges, pairs), cases, contradicting, disputes, as_of=as_of_date, default=scoring, rules=rules
        )
        version = cases["labels_version"].iloc[0]
        evaluated_at = datetime.now(timezone.utc)
        stamp = {"labels_version": version, "as_of": as_of_date, "evaluated_at": evaluated_at}
        con.replace_table("reliability_evaluation", result.measures.assign(**stamp))
        con.replace_table("reliability_evaluation_baselines", result.comparisons.assign(**stamp))
        con.replace_table("reliability_evaluation_cases", result.cases.assign(labels_version=version))
        data_version = written_version(context, con, RELIABILITY_EVALUATION.writes)
        metadata = table_metadata(
            con, "reliability_evaluation", match={"is_default": True, "split": "all", "case_set": HEADLINE}, preview_columns=preview,
            lineage=RELIABILITY_EVALUATION.column_lineage(
                {"value": [("edge_reliability", "label"), ("edge_reliability", "reliability"), ("coherence_judgements", "verdict")]}
            ),
        )
    headline = {f"{condition}/{measure}": measure_text(row) for condition, measure, row in iter_headline(result.measures)}
    context.log.info(f"labels v{version}, default setting, as of {as_of_date}: " + "; ".join(f"{key} {text}" for key, text in headline.items()))
    return dg.MaterializeResult(
        data_version=data_version,
        metadata={
            **metadata,
            "as_of": as_of_date.isoformat(),
            "edges_left_out_after_as_of": after_as_of,
            **_evaluation_figures(result.measures.assign(labels_version=version), result.comparisons, result.cases, len(cases), scoring.model_dump_json()),
            "cases_preview": dg.MetadataValue.md(
                result.cases[["case_id", "class", "grade", "condition", "found", "label", "hit"]].head(40).to_markdown(index=False)
            ),
        }
    )


@dg.asset(**DISPUTE_EVALUATION.asset_arguments(), group_name="evaluation", kinds={"duckdb", "python"}, owners=OWNERS, pool="duckdb")
def dispute_evaluation(context: dg.AssetExecutionContext, store: TableStore, as_of: AsOfDate) -> dg.MaterializeResult:
    """How coherence finds the documented disputes of the labelled pairs (recon_assets/reference/evaluation/
    labelled_pairs.csv: 27 published comments, rebuttals or replies, 37 same-topic controls), `evaluation.pairs`:
    through the pipeline (were the in-scope pairs judged, recorded as disputes, judged CONTRADICTED) and on the pairs'
    own texts (the content judge with the metadata hidden, and the title reading), each dispute rate beside its
    false-positive rate on the controls with a Wilson interval, and the issue's targets. The LLM judge is reported
    as not measured. Writes dispute_evaluation (one row per measure) and dispute_evaluation_pairs (one per pair)."""
    as_of_date = as_of.for_run(context)
    preview = ["measure", "value", "numerator", "denominator", "ci_low", "ci_high", "target", "met"]
    with store.connect() as con:
        outcomes = pipeline_outcomes(
            judged_on_texts(load_pairs()), con.query("dispute_evaluation_publications"), con.query("dataset_publication_pairs"),
            con.query("dispute_evaluation_judgements"), con.query("dispute_evaluation_recorded"), con.query("dispute_evaluation_citations"),
        )
        result = evaluate_pairs(outcomes)
        targets = result.targets.set_index("measure")
        evaluated_at = datetime.now(timezone.utc)
        rows = pd.DataFrame([
            {
                "measure": measure, "what": PAIR_MEASURES[measure],
                "value": rate.value if rate else None, "numerator": rate.numerator if rate else None,
                "denominator": rate.denominator if rate else None,
                "ci_low": rate.interval[0] if rate else None, "ci_high": rate.interval[1] if rate else None,
                "target": targets["target"].get(measure), "met": targets["met"].get(measure),
                "as_of": as_of_date, "evaluated_at": evaluated_at,
            }
            for measure, rate in result.measures.items()
        ])
        con.replace_table("dispute_evaluation", rows)
        con.replace_table("dispute_evaluation_pairs", result.pairs)
        data_version = written_version(context, con, DISPUTE_EVALUATION.writes)
        metadata = table_metadata(
            con, "dispute_evaluation", preview_columns=preview,
            lineage=DISPUTE_EVALUATION.column_lineage({"value": [("coherence_judgements", "verdict"), ("recorded_disputes", "relation")]}),
        )
    figures = {measure: str(rate) if rate else "not measured" for measure, rate in result.measures.items()}
    context.log.info("labelled dispute pairs: " + "; ".join(f"{measure} {text}" for measure, text in figures.items()))
    return dg.MaterializeResult(data_version=data_version, metadata={
        **metadata, "as_of": as_of_date.isoformat(),
        **{
            name: number for measure, rate in result.measures.items() if rate and rate.denominator
            for name, number in rate_numbers(measure, rate.value, rate.numerator, rate.denominator).items()
        },
        "figures": dg.MetadataValue.md("\n".join(f"- {measure}: {text} ({PAIR_MEASURES[measure]})" for measure, text in figures.items())),
        "targets": dg.MetadataValue.md(result.targets.to_markdown(index=False)),
    })


def rate_numbers(name: str, value: float, numerator: float | None, denominator: float | None) -> dict[str, float | int]:
    """A rate as numbers the UI plots: `name` the value (float, a share 0..1 or an AUC), `name/numerator` and
    `name/denominator` (ints) when it is a count over a count; the text form ("95% (21/22)") is only in the
    markdown tables."""
    numbers: dict[str, float | int] = {name: float(value)}
    if not pd.isna(denominator):
        numbers |= {f"{name}/numerator": int(numerator), f"{name}/denominator": int(denominator)}
    return numbers


def _evaluation_figures(
    measures: pd.DataFrame, comparisons: pd.DataFrame, cases: pd.DataFrame, labelled: int, default_setting: str
) -> dict[str, object]:
    """reliability_evaluation's figures from its measures, baseline comparisons and case outcomes (as computed, or as
    stored): the labels version, the default setting (JSON), the number of `labelled` cases and how many were found
    and had an OpenAlex record, each default measure on the IF cases as numbers, the headline (IF and I), the default
    beside each baseline, the targets and the best settings by ROC AUC on the I cases."""
    targets = targets_of(comparisons)
    return {
        "labels_version": measures["labels_version"].iloc[0] if len(measures) else None,
        "default_setting": default_setting,
        "cases": labelled,
        "cases_found_in_kg": int(cases.loc[cases["condition"] == "offline", "found"].sum()),
        "cases_with_openalex_record": int(cases.loc[cases["condition"] == "online", "has_openalex_record"].sum()),
        # what the online figures run over: the found I and F (and I) cases with a citation record as of as_of
        **{f"online_cases_{case_set}": count for case_set, count in online_cases(cases).items()},
        # numbers, so the UI plots them across runs: the default's value of each measure, with its counts
        **{
            name: number for key, row in _default_values(measures).items()
            for name, number in rate_numbers(key, row["value"], row["numerator"], row["denominator"]).items()
        },
        "headline": dg.MetadataValue.md(_headline_markdown(measures, online_cases(cases))),
        "baselines": dg.MetadataValue.md(_baselines_markdown(comparisons)),
        "targets": dg.MetadataValue.md(targets.to_markdown(index=False)),
        **{f"targets_{status.replace(' ', '_')}": int((targets["status"] == status).sum()) for status in TARGET_STATUSES},
        "best_settings_by_roc_auc": dg.MetadataValue.md(_best_settings(measures).to_markdown(index=False)),
    }


def _default_values(measures: pd.DataFrame) -> dict[str, pd.Series]:
    return {f"{condition}_{measure}": row for condition, measure, row in iter_headline(measures) if not pd.isna(row["value"])}


def _headline_markdown(measures: pd.DataFrame, online: dict[str, int]) -> str:
    """The default setting's measures, offline and online side by side, on the IF cases with the I cases beside,
    each with what it means; the online columns say over how many cases they run (`online_cases`)."""
    by = {
        (case_set, condition, measure): measure_text(row)
        for case_set in (HEADLINE, INDEPENDENT) for condition, measure, row in iter_headline(measures, case_set)
    }
    lines = [
        f"| measure | offline IF | offline I | online IF ({online[HEADLINE]} cases with a citation record) "
        f"| online I ({online[INDEPENDENT]} cases) | what it is |",
        "|---|---|---|---|---|---|",
    ]
    for measure, meaning in MEASURES.items():
        cells = " | ".join(by.get((case_set, condition, measure), "n/a") for condition in ("offline", "online") for case_set in (HEADLINE, INDEPENDENT))
        lines.append(f"| {measure} | {cells} | {meaning} |")
    return "\n".join(lines)


def _baselines_markdown(comparisons: pd.DataFrame) -> str:
    """`measure.comparison_table` as markdown."""
    columns, rows = comparison_table(comparisons)
    return pd.DataFrame(rows, columns=list(columns)).to_markdown(index=False)


def _best_settings(measures: pd.DataFrame) -> pd.DataFrame:
    """The five best settings by ROC AUC on the I cases per condition (all of them), with their staleness catch, base
    rate and foundational false flag on the I cases."""
    measures = measures[measures["case_set"] == INDEPENDENT]
    auc = measures[(measures["split"] == "all") & (measures["measure"] == "roc_auc")]
    if auc.empty:
        return pd.DataFrame(columns=["condition", "setting", "auc_rank", "roc_auc", "is_default"])
    best = auc.sort_values(["condition", "auc_rank", "setting"]).groupby("condition").head(5)
    others = measures[(measures["split"] == "all") & measures["measure"].isin(["staleness_catch", "base_rate", "foundational_false_flag"])]
    wide = others.pivot_table(index=["condition", "setting"], columns="measure", values="value").reset_index()
    return best[["condition", "setting", "auc_rank", "value", "is_default"]].rename(columns={"value": "roc_auc"}).merge(wide, on=["condition", "setting"])
