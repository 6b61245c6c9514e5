"""Assets of the `evaluation` group: the method scored on labelled cases, with the weight and decay ablation."""

from datetime import datetime, timezone

import dagster as dg
import pandas as pd
from dagster_duckdb import DuckDBResource

from recon_assets.evaluation.ablation import RATE_COLUMNS, edge_inputs, evaluate, judge_pairs, stored_scoring
from recon_assets.evaluation.cases import KNOWN_CONTRADICTED, load_cases, load_pair_texts
from recon_assets.evaluation.metrics import EARLIER_BASELINE, Rate
from recon_assets.judgement.assets import coherence_judgements
from recon_assets.kg.assets import OWNERS
from recon_assets.lifecycle.assets import dataset_lineage
from recon_assets.metadata import table_metadata
from recon_assets.reliability.assets import edge_reliability
from recon_assets.resources import AsOfDate
from recon_assets.sql_files import load_sql
from recon_assets.storage import replace_table

# rate column -> (numerator column, denominator column), and whether a higher rate is better.
FRACTIONS = {rate: (numerator, denominator) for rate, numerator, denominator in RATE_COLUMNS.values()}
BASE_RATE = "flagged_share_all_edges"  # context for the staleness catch rate, not a rate to optimise
RATES = {rate: rate != "foundational_false_flag_rate" for rate in FRACTIONS if rate != BASE_RATE}
SETTING = ["weight_centrality", "weight_recency", "weight_coherence", "decay"]


@dg.asset(
    deps=[edge_reliability, coherence_judgements, dataset_lineage],
    group_name="evaluation", kinds={"duckdb", "python"}, owners=OWNERS, pool="duckdb",
)
def reliability_evaluation(context: dg.AssetExecutionContext, duckdb: DuckDBResource, as_of: AsOfDate) -> dg.MaterializeResult:
    """The method scored on labelled cases (recon_assets/reference/labelled_cases.csv): staleness catch rate,
    foundational false-flag rate, contradiction catch rate and SUPERSEDED precision, under every weight triple of
    the 0.1 grid and each decay (198 settings, the default and the age-only reproduction marked), beside the
    earlier age-only method's 52 % staleness and 0 % contradiction catch, and the share of all KG edges flagged
    stale (the catch rate's base rate). Also writes reliability_evaluation_cases: every labelled case's outcome
    under the default; cases not in the KG are kept. A KG without edges still has its worked cases and pairs
    measured, as of the `as_of` resource; the edge rates are then n/a."""
    cases = load_cases()
    with duckdb.get_connection() as con:
        stored = con.execute("SELECT * FROM edge_reliability").df()
        if stored.empty:
            context.log.warning("edge_reliability has no edge: only the worked cases and the labelled pairs are measured")
        as_of_date = as_of.date() if stored.empty else stored["as_of"].max().date()
        judged = con.execute(load_sql("judged_pairs_by_doi")).df()
        verdicts = judge_pairs(cases[cases["expected"] == KNOWN_CONTRADICTED], load_pair_texts(), judged)
        scoring = stored_scoring(stored)
        settings, outcomes = evaluate(edge_inputs(stored), cases, verdicts, as_of=as_of_date, scoring=scoring)
        version = cases["labels_version"].iloc[0]
        evaluated_at = datetime.now(timezone.utc)
        replace_table(con, "reliability_evaluation", settings.assign(labels_version=version, as_of=as_of_date, evaluated_at=evaluated_at))
        replace_table(con, "reliability_evaluation_cases", outcomes.assign(labels_version=version))
        metadata = table_metadata(
            con, "reliability_evaluation", preview_columns=[*SETTING, *RATES, BASE_RATE],
            lineage={
                rate: [("edge_reliability", "label")]
                for rate in ("staleness_catch_rate", "foundational_false_flag_rate", "superseded_precision", BASE_RATE)
            } | {"contradiction_catch_rate": [("coherence_judgements", "verdict")]},
        )
    default = settings[settings["is_default"]].iloc[0]
    age_only = settings[settings["is_age_only"]].iloc[0]
    summary = _summary(default)
    context.log.info(f"labels v{version}, default setting: {summary}")
    return dg.MaterializeResult(
        metadata={
            **metadata,
            "labels_version": version,
            "as_of": as_of_date.isoformat(),
            "held_fixed": scoring or "defaults (no scored edge)",
            "default": {"setting": "0.4/0.3/0.3 linear", **summary},
            "age_only_reproduction": {"setting": "0/1/0 linear", **_summary(age_only)},
            "earlier_age_only_method": {rate: f"{value:.0%}" for rate, value in EARLIER_BASELINE.items()},
            "best_setting_per_rate": {rate: _best(settings, rate, higher) for rate, higher in RATES.items()},
            "cases": outcomes.groupby(["kind", "found"]).size().rename("n").reset_index().to_dict("records"),
            "cases_preview": dg.MetadataValue.md(
                outcomes[["case_id", "kind", "expected", "found", "got", "hit"]].to_markdown(index=False)
            ),
        }
    )


def _summary(row: pd.Series) -> dict[str, str]:
    """Each rate of one setting as text, the base rate right after the staleness catch rate it qualifies."""
    rates = list(RATES)
    rates.insert(rates.index("staleness_catch_rate") + 1, BASE_RATE)
    return {rate: _rate_text(row, rate) for rate in rates}


def _rate_text(row: pd.Series, rate: str) -> str:
    """'95% (21/22)', or 'n/a (0 cases)' when the rate has no denominator (`metrics.Rate`)."""
    numerator, denominator = FRACTIONS[rate]
    return str(Rate(int(row[numerator]), int(row[denominator])))


def _best(settings: pd.DataFrame, rate: str, higher: bool) -> dict[str, object]:
    """The best value of `rate` over the grid (NaN rates left out), how many settings reach it, and the first of
    them in grid order with the default preferred on a tie."""
    measured = settings[settings[rate].notna()]
    if measured.empty:
        return {"value": str(Rate(0, 0))}
    best = measured[rate].max() if higher else measured[rate].min()
    reaching = measured[measured[rate] == best].sort_values("is_default", ascending=False, kind="stable")
    first = reaching.iloc[0]
    return {
        "value": _rate_text(first, rate),
        "settings_reaching_it": len(reaching),
        "example": f"{first['weight_centrality']:.1f}/{first['weight_recency']:.1f}/{first['weight_coherence']:.1f} {first['decay']}",
        "default_reaches_it": bool(reaching["is_default"].any()),
    }
