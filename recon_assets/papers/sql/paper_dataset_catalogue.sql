-- The graph's datasets a paper's dataset names are matched against (`papers.dataset_catalogue.DatasetCatalogue`).
SELECT dataset_id, short_name, long_name, doi FROM datasets ORDER BY dataset_id
