"""Review boards: board.yaml sources, the built comparison pages and their manifests."""
