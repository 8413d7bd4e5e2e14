"""The browser page's tests: a package, so that its conftest and modules have names of their own."""
