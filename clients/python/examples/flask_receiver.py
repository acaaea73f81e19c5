"""An endpoint for dsched's calls, in Flask: verify the signature on the raw body, then apply each
occurrence once (a retry of a call already applied carries the same job id).

    pip install ./clients/python flask
    DSCHED_SIGNING_SECRET=whsec_... python clients/python/examples/flask_receiver.py
"""

import os
from collections.abc import Callable

from flask import Flask, abort, request

from dsched import WebhookCall, WebhookVerificationError, verify_webhook


def create_app(signing_secret: str, handle: Callable[[WebhookCall, bytes], None]) -> Flask:
    app = Flask(__name__)
    applied: set[str] = set()  # job ids; a real endpoint records them with the effect, in its database

    @app.post("/dsched")
    def receive():
        body = request.get_data()  # the bytes as sent: a re-serialised body would not verify
        try:
            call = verify_webhook(signing_secret, request.headers, body)
        except WebhookVerificationError:
            abort(401)
        if call.id not in applied:
            handle(call, body)
            applied.add(call.id)
        return {"ok": True}

    return app


if __name__ == "__main__":
    app = create_app(os.environ["DSCHED_SIGNING_SECRET"], lambda call, body: print(call.id, call.attempt, body))
    app.run(host="127.0.0.1", port=8000)
