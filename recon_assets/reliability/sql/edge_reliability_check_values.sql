-- The values check edge_reliability_values_valid validates, every edge_reliability row: (research_area, centrality,
-- recency, coherence, reliability, label, coherence_status).
SELECT research_area, centrality, recency, coherence, reliability, label, coherence_status FROM edge_reliability
