"""Teaching tools the book uses: the MyST converter (reader notebooks) and the scorecard."""
