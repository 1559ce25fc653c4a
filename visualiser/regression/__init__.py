"""Tools for visual-regression suites: manifests of renders and chunking diffs."""
