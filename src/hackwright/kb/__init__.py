"""Knowledge base: a local NetHack corpus with BM25, dense and hybrid retrieval (wiki-BALROG, seed 000)."""
