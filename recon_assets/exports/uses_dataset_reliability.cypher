// recon_assets: write reliability, label and reason onto the KG's existing USES_DATASET relationships.
// Parameter $file: the URL of uses_dataset_reliability.jsonl (e.g. 'file:///uses_dataset_reliability.jsonl' with the
// file in Neo4j's import folder and apoc.import.file.enabled=true in apoc.conf). Run with cypher-shell:
//   cypher-shell -P "file => 'file:///uses_dataset_reliability.jsonl'" -f uses_dataset_reliability.cypher
// apoc.load.json reads a JSON-lines file one object per line (APOC docs, "Load JSON": JSONL sources); every value is
// read from those lines, none is written into this text. apoc.import.json is not used: it creates the nodes and
// relationships of an APOC export, it does not update relationships that exist.
// MATCH finds nothing for a line whose nodes are not in the graph (another snapshot): `total` counts lines read,
// `updateStatistics.propertiesSet` what was set. An index on globalId keeps each MATCH a look-up:
//   CREATE INDEX publication_global_id IF NOT EXISTS FOR (p:Publication) ON (p.globalId);
//   CREATE INDEX dataset_global_id IF NOT EXISTS FOR (d:Dataset) ON (d.globalId);
// Batches of 10,000 lines per transaction: about 15 transactions for the KG's ~150,000 USES_DATASET relationships.
CALL apoc.periodic.iterate(
  'CALL apoc.load.json($file) YIELD value RETURN value',
  'MATCH (p:Publication {globalId: value.publication_global_id})-[r:USES_DATASET]->(d:Dataset {globalId: value.dataset_global_id}) SET r.reliability = value.reliability, r.reliability_label = value.label, r.reliability_reason = value.reason, r.reliability_as_of = date(value.as_of), r.reliability_scored_by = value.scored_by',
  {batchSize: 10000, parallel: false, params: {file: $file}}
) YIELD batches, total, committedOperations, failedOperations, errorMessages, updateStatistics
RETURN batches, total, committedOperations, failedOperations, errorMessages, updateStatistics;
