"""The page: a Flask app served by waitress, with a JSON API and Server-Sent Events."""
