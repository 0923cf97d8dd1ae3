"""The chapters' experiment protocols."""
