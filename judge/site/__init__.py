"""The site layer: the static HTML rulebook (`build`), Jinja2 set-up and URLs (`templating`),
the turn diagram (`diagram`), the history blocks and changes pages (`history_view`) and the
offline search index (`offline_index`).
"""
