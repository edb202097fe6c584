"""chanceclust's asv benchmark suite (benchmarks/asv.conf.json; benchmarks/README.md)."""
