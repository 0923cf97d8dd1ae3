"""Teaching tools: assignments (release and grade), the MyST converter, the scorecard."""
