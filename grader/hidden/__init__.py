"""The hidden tests of the book's chapters, one file per notebook (``<notebook stem>.py``)."""
