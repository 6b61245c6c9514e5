CREATE OR REPLACE TABLE publication_citations (
    citing_publication_id VARCHAR NOT NULL,
    cited_publication_id  VARCHAR NOT NULL,
    relationship_ids      VARCHAR[] NOT NULL,
    PRIMARY KEY (citing_publication_id, cited_publication_id)
);
