"""The companion: a table companion for Matterhorn, Mountain Goats, Magic Mountain and Banana Matcho."""

__version__ = "0.1.0"
