"""Assets of the `judgement` group: pairwise coherence judgements, one partition per research area.

Which research areas are judged is Dagster's staleness (`automation.staleness`): a launched run judges every area it
covers. What a judging costs is cached below it: the texts embedded (`text_embeddings`: only texts whose vectors it does
not hold yet are embedded), the texts read (`judge_text_readings`: the wording addressing the judge and the cue of each
text, which as_of does not change) and the LLM judge's answers (`llm_judgements`).
"""

from datetime import date, datetime, timezone
from pathlib import Path

import dagster as dg
import numpy as np
import pandas as pd
from pydantic import Field

from recon_assets.centrality.citation_centrality import citation_centrality
from recon_assets.declarations import ASSET_TABLES
from recon_assets.judgement import judge_address, llm_judge, steward, text_readings
from recon_assets.judgement.citing_pairs import DEFAULT_TOP_K_CITING, SAME_DATASET, SUCCESSOR_VERSION, judge_citing_pairs
from recon_assets.judgement.disputes import RELATIONS, disputes_from_crossref, disputes_from_titles, merge_recorded_disputes
from recon_assets.judgement.llm_judge import Agreement, LlmJudgeReport
from recon_assets.judgement.offline_judge import (
    DEFAULT_MIN_SIMILARITY,
    DEFAULT_TOP_K,
    DEFAULT_WINDOW_YEARS,
    judge_edges,
)
from recon_assets.judgement.embedding_store import cached_vectors, store_vectors
from recon_assets.judgement.text_embedding import embed_cached
from recon_assets.judgement.verdict_scale import VERDICTS
from recon_assets.kg.assets import OWNERS
from recon_assets.judgement.resources import GroqJudgeResource
from recon_assets.kg.partitions import research_area_partitions
from recon_assets.shared.as_of import AsOfDate
from recon_assets.shared.metadata import (
    add_partition_metadata, distribution, partitioned_result, run_figures, table_description_metadata, table_metadata, written_version,
)
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.tables import Tables, table_exists

STEWARD_JUDGEMENTS, RECORDED_DISPUTES, COHERENCE_JUDGEMENTS = (
    ASSET_TABLES[name] for name in ("steward_judgements", "recorded_disputes", "coherence_judgements")
)
# Key of a citing work OpenAlex lists and the KG lacks (recon_assets/judgement/sql/judge_citing_works.sql).
OPENALEX_KEY_PREFIX = "openalex:"


DISPUTE_PREVIEW = ["research_area", "publication_id", "relation", "other_title", "other_year", "source"]
DISPUTE_LINEAGE = RECORDED_DISPUTES.column_lineage({
    "publication_id": [("publication_citations", "cited_publication_id"), ("crossref_relations", "doi")],
    "relation": [("publications", "title"), ("crossref_relations", "relation"), ("crossref_relations", "update_type")],
    "other_key": [
        ("publication_citations", "citing_publication_id"), ("openalex_citing_works", "citing_openalex_id"), ("crossref_relations", "other_id"),
    ],
    "other_title": [("publications", "title"), ("openalex_citing_works", "citing_title"), ("crossref_relations", "other_title")],
})


class JudgeConfig(dg.Config):
    """Settings of the offline judge (see recon_assets.judgement.offline_judge for what each means)."""

    top_k: int = Field(default=DEFAULT_TOP_K, ge=1, description="Newer publications judged per edge, most similar first.")
    min_similarity: float = Field(
        default=DEFAULT_MIN_SIMILARITY, ge=-1.0, le=1.0, description="Cosine similarity below which a newer paper is not evidence."
    )
    window_years: int = Field(
        default=DEFAULT_WINDOW_YEARS, ge=1,
        description="Newer works using the same dataset (or its successor version) are evidence from the last this many years before as_of; works citing the publication are evidence at any date up to as_of.",
    )
    top_k_citing: int = Field(
        default=DEFAULT_TOP_K_CITING, ge=1,
        description="Works citing a publication judged per publication, most similar first, besides every comment, reply or correction.",
    )


class StewardConfig(dg.Config):
    path: str = Field(default=str(steward.STEWARD_FILE), description="The steward file (CSV; judgement/steward.py says its columns).")


@dg.asset(**STEWARD_JUDGEMENTS.asset_arguments(), group_name="stewardship", kinds={"duckdb", "csv"}, owners=OWNERS, pool="duckdb")
def steward_judgements(context: dg.AssetExecutionContext, config: StewardConfig, store: TableStore) -> dg.MaterializeResult:
    """The data stewards' judgements of pairs and edges, read from a versioned file (`judgement.steward`), checked and
    matched to the KG: each row applies (and takes precedence over every machine judge in coherence_judgements and
    edge_reliability), names no KG edge, or is rejected with its reason; rows in = applies + no_such_edge + rejected.
    Re-materialize it after editing the file."""
    read = steward.read_steward_file(Path(config.path))
    with store.connect() as con:
        rows = steward.resolve(read, con.query("steward_kg_datasets"), con.query("steward_kg_publications"), con.query("dataset_publication_pairs"))
        con.replace_table("steward_judgements", rows)
        metadata = table_metadata(
            con, "steward_judgements", preview_columns=["line", "scope", "dataset", "publication_doi", "verdict", "steward", "status", "reason"],
            lineage=STEWARD_JUDGEMENTS.column_lineage({"dataset_id": [("datasets", "dataset_id")], "publication_id": [("publications", "doi")]}),
        )
    statuses = {status: int((rows["status"] == status).sum()) for status in (steward.APPLIES, steward.NO_SUCH_EDGE, steward.REJECTED)}
    lines = int((rows["last_line"] - rows["line"] + 1).sum())
    context.log.info(f"steward judgements: {len(rows):,} rows on {lines:,} lines (blank ones aside) in {config.path}: {statuses}")
    for row in rows[rows["status"] != steward.APPLIES].itertuples():
        where = f"line {row.line}" if row.last_line == row.line else f"lines {row.line}-{row.last_line}"
        context.log.warning(f"steward file {where}: {row.status}: {row.reason}")
    return dg.MaterializeResult(metadata={**metadata, "rows_in_file": len(read), "lines_in_rows": lines, "statuses": statuses, "path": config.path})


@dg.asset(
    **RECORDED_DISPUTES.asset_arguments(),
    partitions_def=research_area_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name="judgement", kinds={"duckdb"}, owners=OWNERS, pool="duckdb",
)
def recorded_disputes(context: dg.AssetExecutionContext, store: TableStore) -> dg.MaterializeResult:
    """Published comments on each publication of the research area, replies to them and corrections of it
    (DOMAIN.md "coherence" (b)), from two sources: the titles of the works citing it, in the KG or listed by OpenAlex
    ("Comment on ...", "Reply to ...", "Corrigendum ..."), and Crossref's records (crossref_relations: is-comment-on /
    has-comment, is-reply-to / has-reply, update notices of type correction, corrigendum, erratum or addendum). A
    comment is dispute evidence against the paper, a reply makes it debated, a correction a refinement; where both
    sources name the same work, Crossref's relation stands. Dated by the answering work's year (a correction by its
    notice's), so a past as_of sees only what was published by then."""
    areas = list(context.partition_keys)
    with store.connect() as con:
        con.create("recorded_disputes", "openalex_citing_works", "crossref_relations")
        titled = disputes_from_titles(con.query("citing_titles", [areas]))
        entries = con.query("crossref_dispute_entries", [areas])
        recorded, set_aside = disputes_from_crossref(entries)
        found, overridden = merge_recorded_disputes(titled, recorded)
        con.temp_table("found_disputes", found)
        rows = con.query("recorded_dispute_rows", [areas, datetime.now(timezone.utc)])
        con.drop_temp_table("found_disputes")
        con.replace_partitions("recorded_disputes", rows, areas)
        version = written_version(context, con, RECORDED_DISPUTES.writes)
        metadata = table_description_metadata(con, "recorded_disputes", lineage=DISPUTE_LINEAGE)
        add_partition_metadata(context, con, "recorded_disputes", rows, dispute_figures, preview_columns=DISPUTE_PREVIEW)
    entries_read = len(entries)  # one row per entry (crossref_dispute_entries.sql)
    crossref = {
        "crossref_entries_read": entries_read,
        "crossref_entries_set_aside": len(set_aside),
        "crossref_entries_made_disputes": entries_read - len(set_aside),
        "crossref_set_aside_reasons": {reason: int(n) for reason, n in set_aside["reason"].value_counts().sort_index().items()},
        "title_readings_overridden_by_crossref": overridden,
    }
    figures = dispute_figures(rows)
    context.log.info(
        f"{len(rows):,} recorded disputes and corrections in {len(areas)} research area(s): {figures['relations']}, by source "
        f"{figures['sources']}; Crossref entries: {entries_read:,} read, {len(set_aside):,} set aside {crossref['crossref_set_aside_reasons']}"
    )
    return partitioned_result(context, {**metadata, **run_figures({**figures, **crossref})}, version)


def dispute_figures(rows: pd.DataFrame) -> dict[str, object]:
    """Figures of recorded_disputes rows (one research area's, or a run's): relations {relation: rows} and
    sources {source: rows}."""
    return {
        "relations": distribution(rows["relation"], RELATIONS),
        "sources": {source: int(count) for source, count in rows["source"].value_counts().sort_index().items()},
    }


@dg.asset(
    **COHERENCE_JUDGEMENTS.asset_arguments(),
    partitions_def=research_area_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name="judgement", kinds={"duckdb", "python"}, owners=OWNERS, pool="duckdb",
)
def coherence_judgements(
    context: dg.AssetExecutionContext, config: JudgeConfig, store: TableStore, as_of: AsOfDate, groq_judge: GroqJudgeResource
) -> dg.MaterializeResult:
    """Pairwise judgements of each edge's publication against the newer work that answers it (DOMAIN.md
    "coherence"): the works citing it at any date up to as_of (KG CITES), and the newer works using the same dataset
    or its successor version in the window before as_of; by the offline judge: verdict SUPPORTED / CONTRADICTED /
    SUPERSEDED, a coherence value and a rationale quoting the cue; `evidence_kind` says which kind of evidence.
    With GROQ_API_KEY set, the Groq LLM judge then reads the pairs triage picks (`judgement.llm_judge`), within its
    budgets and through its cache, and its answer takes precedence for its pair (`judge` and `prompt_version` say
    whose verdict a row holds; `judge_agreement` in the metadata compares the two judges).
    One run judges every research area it covers (Dagster launches the stale ones); each area's rows are replaced,
    never duplicated, and the other areas' rows are left as they are."""
    areas = list(context.partition_keys)
    as_of_date = as_of.for_run(context)
    llm_offline = groq_judge.offline_reason()
    with store.connect() as con:
        stewards = steward.applicable(stored_steward_judgements(con), "pair", as_of_date)
        con.create(
            "coherence_judgements", "text_embeddings", "judge_text_readings", "dataset_evidence_edges", "openalex_citing_works",
            "llm_judgements", "recorded_disputes",
        )
        judged = _judge(context, con, config, groq_judge, stewards, as_of_date, areas)
        version = written_version(context, con, COHERENCE_JUDGEMENTS.writes)
        stored = con.query("coherence_verdicts", [areas])
        metadata = table_description_metadata(
            con, "coherence_judgements",
            lineage=COHERENCE_JUDGEMENTS.column_lineage({
                "older_publication_id": [("dataset_publication_edges", "publication_id")],
                "newer_publication_id": [
                    ("dataset_publication_edges", "publication_id"), ("publication_citations", "citing_publication_id"),
                    ("openalex_citing_works", "citing_openalex_id"),
                ],
                "evidence_kind": [("dataset_publication_edges", "publication_id"), ("publication_citations", "citing_publication_id")],
                "similarity": [("publications", "title"), ("publications", "abstract")],
                "verdict": [("publications", "abstract")],
                "newer_centrality": [("publication_centrality", "centrality")],
                "newer_via_successor": [("dataset_lineage", "successor_dataset_id")],
            }),
        )
        add_partition_metadata(
            context, con, "coherence_judgements", stored, lambda area_rows: {"verdicts": distribution(area_rows["verdict"], VERDICTS)},
            preview_columns=["dataset_id", "older_publication_id", "newer_publication_id", "verdict", "coherence", "rationale"],
        )
    return partitioned_result(
        context,
        {
            **metadata, "as_of": as_of_date.isoformat(),
            **run_figures({
                "verdicts": distribution(stored["verdict"], VERDICTS), "research_areas_judged": len(areas),
                **_judging_metadata(judged, llm_offline),
            }),
        },
        # A single-run backfill gives every partition of the run this one version (there is no per-partition
        # result): that of the whole table, so a re-run writing the same rows leaves edge_reliability fresh, and a
        # change in one area marks all the run's areas stale.
        version,
    )


def _judge(
    context: dg.AssetExecutionContext,
    con: Tables,
    config: JudgeConfig,
    groq_judge: GroqJudgeResource,
    stewards: pd.DataFrame,
    as_of_date: date,
    areas: list[str],
) -> tuple[LlmJudgeReport, Agreement, int]:
    """Judge `areas` (offline judge, then the LLM judge on the pairs triage picks, then the steward's pair
    judgements `stewards` over both) and replace their rows. Every judge reads the titles and
    abstracts without the sentences that address the judge (`judge_address.strip_judge_address`), and the rationale
    of a pair whose texts held one says what was removed. Returns the LLM judge's report, its agreement with the
    offline judge and how many publications' texts addressed the judge."""
    pool = con.query("judge_inputs", [areas])
    con.temp_table("judge_pool", pool)
    citing = con.query("judge_citing_works")
    # a work OpenAlex lists and the KG lacks has no PageRank: its citation count weighs it (DOMAIN.md "centrality")
    citing["citing_centrality"] = citing["citing_centrality"].fillna(
        pd.Series(citation_centrality(citing["citing_cited_by_count"].astype("Float64").fillna(0.0).to_numpy()), index=citing.index)
    )
    con.temp_table("judge_citing", citing)
    # Wording that addresses the judge (a planted instruction) is no evidence: no judge reads it (`judge_address`).
    # What each text reads as (the wording removed, the cue) is kept between runs: as_of does not change it.
    publications = con.query("judged_publications")
    texts, removed = judge_address.strip_judge_address(
        publications, "publication_id", {"title": "title", "abstract": "abstract"},
        read=text_readings.stripped_texts(con, [*publications["title"], *publications["abstract"]]),
    )
    con.temp_table("judge_texts", texts)
    citing_texts = con.query("judge_citing_texts", [OPENALEX_KEY_PREFIX])
    # its KG rows are judge_texts' (stripped above); the works only OpenAlex lists are read here
    listed = citing_texts["key"].str.startswith(OPENALEX_KEY_PREFIX)
    stripped, removed_citing = judge_address.strip_judge_address(
        citing_texts[listed], "key", {"title": "title", "abstract": "abstract"},
        read=text_readings.stripped_texts(con, [*citing_texts.loc[listed, "title"], *citing_texts.loc[listed, "abstract"]]),
    )
    citing_texts.loc[listed, ["title", "abstract"]] = stripped[["title", "abstract"]]
    removed |= removed_citing
    if removed:
        first = next(iter(removed.items()))
        context.log.warning(
            f"{len(removed):,} publications' titles or abstracts address the judge (a planted instruction, a verdict with a score, a "
            f"role marker): those sentences were removed before any judge read them, e.g. {first[0]}: {first[1]}"
        )
    via_successor = int(pool["via_successor"].sum())
    context.log.info(
        f"judging {len(pool) - via_successor:,} edges of {pool['dataset_id'].nunique():,} datasets for {len(areas)} research "
        f"area(s), with {via_successor:,} publications on their successor versions and {len(citing):,} citing works as evidence "
        f"({int((citing['source'] == 'openalex').sum()):,} of them listed by OpenAlex only)"
    )
    fresh: dict[str, np.ndarray] = {}

    def embed_through_cache(batch: list[object]) -> np.ndarray:
        # the texts this run embedded already (for the other kind of pair) are not in the table yet
        vectors, new = embed_cached(batch, lambda keys: cached_vectors(con, keys) | {key: fresh[key] for key in keys if key in fresh})
        fresh.update(new)
        return vectors

    same_dataset = judge_edges(
        pool, texts, as_of=as_of_date, top_k=config.top_k, min_similarity=config.min_similarity,
        window_years=config.window_years, embedder=embed_through_cache, read_cues=text_readings.read_cues(con),
        progress=context.log.info,
    )
    same_dataset = same_dataset.assign(evidence_kind=np.where(same_dataset["newer_via_successor"], SUCCESSOR_VERSION, SAME_DATASET))
    cited = judge_citing_pairs(
        pool[~pool["via_successor"]], citing, citing_texts, as_of=as_of_date,
        top_k=config.top_k_citing, embedder=embed_through_cache, read_cues=text_readings.read_cues(con),
    )
    con.temp_table("judged_citing_pairs", cited)
    con.temp_table("judged_same_dataset_pairs", same_dataset)
    pairs = con.query("judge_pairs")
    datasets = con.query("judged_dataset_names", [pairs["dataset_id"].unique().tolist()])
    disputed = set(con.query_rows("recorded_dispute_pairs"))
    asked = pairs
    if groq_judge.offline_reason():
        # Offline only stored answers can be used: the pairs that have one are the only candidates (building and
        # digesting every pair's texts for nothing took most of the judging time at full scale).
        con.temp_table("judge_pair_candidates", pairs)
        asked = con.query("judge_pairs_with_stored_answers")
        con.drop_temp_table("judge_pair_candidates")
    candidates = llm_judge.pair_candidates(asked, citing_texts, datasets, disputed)
    llm = groq_judge.judge(con, candidates, log=context.log)
    agreement = llm_judge.judge_agreement(pairs, llm.judgements)
    pairs = llm_judge.prefer_llm_judgements(pairs, llm.judgements)
    pairs = steward.prefer_steward_pairs(pairs, stewards[stewards["dataset_id"].isin(pool["dataset_id"])], texts.rename(columns={"publication_id": "key"}))
    pairs = judge_address.note_removed(pairs, removed)
    if fresh:
        store_vectors(con, fresh)
    context.log.info(f"embedded {len(fresh):,} texts not in text_embeddings")
    judged_at = datetime.now(timezone.utc)
    con.temp_table("judged_pairs", pairs)
    rows = con.query("coherence_judgement_rows", [areas, as_of_date, judged_at])
    con.drop_temp_table("judged_pairs")
    con.replace_partitions("coherence_judgements", rows, areas)
    context.log.info(f"{len(rows):,} judged pairs: {rows['verdict'].value_counts().to_dict()}; {agreement.markdown.splitlines()[0]}")
    return llm, agreement, len(removed)


def stored_steward_judgements(con: Tables) -> pd.DataFrame:
    """The steward_judgements table (empty, with its columns, before the asset was first materialized)."""
    if not table_exists(con, "steward_judgements"):
        return pd.DataFrame(columns=list(steward.RESOLVED_COLUMNS))
    return con.query("stored_steward_judgements")


def _judging_metadata(judged: tuple[LlmJudgeReport, Agreement, int], offline_reason: str | None) -> dict[str, object]:
    """The judging figures for the asset's metadata: the LLM judge's run totals and `judge_agreement` as markdown, or
    why it did not run (offline), and `texts_addressing_judge` (publications whose title or abstract addressed the
    judge: those sentences were removed before judging)."""
    report, agreement, addressing = judged
    return {
        "texts_addressing_judge": addressing,
        "llm_judge": offline_reason or report.totals["unavailable"] or "online",
        "llm_judge_totals": report.totals,
        "judge_agreement": dg.MetadataValue.md(agreement.markdown),
        "judge_agreement_rate": agreement.rate,
    }
