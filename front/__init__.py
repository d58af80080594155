"""Front ends over the library: overlays (one drawing for report, page and camera), the HTML report,
the web page and its API.  The web server is the optional ``web`` extra; ``import front`` stays light."""
