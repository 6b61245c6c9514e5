"""The jobs: which assets a run of each materializes.

`kg_tables_job` ingests the snapshot and builds every unpartitioned table; `openalex_refresh_job` refreshes
the OpenAlex and Crossref records of research areas, then judges, scores and gives dataset verdicts;
`edge_reliability_job` judges, scores and gives verdicts with the records already stored;
`reliability_evaluation_job` measures the method on the labelled cases over whatever is scored, writes the
reliability report and the exports (GNN edge weights, the Neo4j write-back) and records what changed since the
previous KG snapshot (`kg_snapshot_diff`). Partitioned jobs run one research area, or (as the schedules, the KG
source sensor and `recon run` do) every area in one run: the unpartitioned tables are read once per run, each
area's partition still gets its own figures (docs/OPERATIONS.md "One run for every research area"), and the run ends with
the assets computed over every research area (AFTER_SCORING), so a refresh leaves nothing it feeds stale (a run
per area would leave `reliability_evaluation` stale behind the areas scored after it, or run it 22 times).

Every run is launched at once (dagster.yaml: Dagster's DefaultRunCoordinator), from the UI, `recon run` or a
schedule; schedules, the KG source sensor and run monitoring need the daemon that `dagster dev` (or `dagster-daemon
run` beside `dagster-webserver`) starts.
"""

import dagster as dg

UNPARTITIONED = dg.AssetSelection.groups("kg", "lifecycle", "centrality", "stewardship")
# Said in every job's description, where a user launching from the UI reads it.
LAUNCH_NOTE = (
    " A run is launched at once; schedules and the KG source sensor fire only while the daemon runs (`dagster dev`,"
    " or `dagster-daemon run` beside `dagster-webserver`)."
)
PARTITIONED = dg.AssetSelection.groups("judgement", "reliability", "verdicts")
ENRICHED = dg.AssetSelection.groups("enrichment") | PARTITIONED
# Unpartitioned assets computed from every research area's scores: they go after the partitioned ones.
AFTER_SCORING = dg.AssetSelection.groups("evaluation", "reporting", "exports", "history")

kg_tables_job = dg.define_asset_job(
    "kg_tables_job", selection=UNPARTITIONED,
    description="Ingest the KG snapshot and build the typed tables, dataset lineage, centrality and the steward judgements." + LAUNCH_NOTE,
)
edge_reliability_job = dg.define_asset_job(
    "edge_reliability_job", selection=PARTITIONED,
    description="Judge coherence, score edge reliability and give dataset verdicts for research areas." + LAUNCH_NOTE,
)
reliability_evaluation_job = dg.define_asset_job(
    "reliability_evaluation_job", selection=AFTER_SCORING,
    description=(
        "Measure the method on the labelled cases (with the weight and decay ablation) and on the labelled dispute pairs; "
        "write the reliability report (HTML and PDF), the GNN edge weights and the Neo4j write-back files; record what "
        "changed since the previous KG snapshot (kg_snapshot_diff)." + LAUNCH_NOTE
    ),
)
openalex_refresh_job = dg.define_asset_job(
    "openalex_refresh_job",
    selection=ENRICHED,
    description=(
        "Refresh the OpenAlex works (DOIs older than the TTL) and the Crossref update notices and relations of research "
        "areas, then judge, score and give dataset verdicts." + LAUNCH_NOTE
    ),
)

daily_rescoring_job = dg.define_asset_job(
    "daily_rescoring_job", selection=PARTITIONED | AFTER_SCORING,
    description="Judge, score and give dataset verdicts for every research area, then evaluate and diff (the daily schedule)."
    + LAUNCH_NOTE,
)
weekly_refresh_job = dg.define_asset_job(
    "weekly_refresh_job", selection=ENRICHED | AFTER_SCORING,
    description="Refresh OpenAlex and Crossref records, judge, score and give verdicts for every research area, then evaluate and diff (the weekly schedule)."
    + LAUNCH_NOTE,
)
# One paper per run (issue 22): its own dynamic partitions, never in a research-area run.
PAPERS = dg.AssetSelection.groups("papers")
paper_analysis_job = dg.define_asset_job(
    "paper_analysis_job", selection=PAPERS,
    description=(
        "Analyse one paper (a partition: the SHA-256 of its PDF, or doi:<DOI>): read it, match its datasets to the graph "
        "with their lifecycle, extract its claims, score it and write its report. The papers folder sensor and `recon "
        "paper` add the partitions." + LAUNCH_NOTE
    ),
)
# One research question per run (issue 21): its own dynamic partitions, never in a research-area run.
BRIEFS = dg.AssetSelection.groups("briefs")
# Every asset check that runs without its asset: question_verdict_history's check is made by its asset (check_specs),
# which cannot be left out of a run of that check.
STANDALONE_CHECKS = dg.AssetSelection.all_asset_checks() - BRIEFS
question_briefs_job = dg.define_asset_job(
    "question_briefs_job", selection=BRIEFS,
    description=(
        "Answer one research question (a partition: its id in the question file, or ask-<hash> for `recon ask`): plan, "
        "retrieve, judge with up to 2 rewrite rounds, write the brief and record its verdict. The question file sensor "
        "and `recon ask` add the partitions; the weekly schedule refreshes them all." + LAUNCH_NOTE
    ),
)
kg_refresh_job = dg.define_asset_job(
    "kg_refresh_job", selection=dg.AssetSelection.all() - PAPERS - BRIEFS,
    description="Ingest the KG snapshot and rebuild everything from it over every research area (the KG source sensor)." + LAUNCH_NOTE,
)
