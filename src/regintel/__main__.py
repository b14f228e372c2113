from regintel.cli import app

app(prog_name="regintel")
