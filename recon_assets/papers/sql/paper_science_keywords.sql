-- The graph's GCMD ScienceKeyword nodes a paper's terms are matched to: id, name and how many datasets and
-- publications link to it.
SELECT keyword_id, name, datasets + publications FROM science_keywords WHERE name IS NOT NULL ORDER BY keyword_id
