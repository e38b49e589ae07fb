"""haven's scenarios: the data files (data/*.toml), their model and their loader."""
