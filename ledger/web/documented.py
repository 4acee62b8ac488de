"""The API's own documentation, /docs (Swagger UI), served by the ledger.

FastAPI's pages load their scripts and styles from a CDN: a league's server on a closed
network, or a browser kept off the internet, showed a blank page. The same files come
from the fastapi-offline package and are served here, under /docs/assets. And the OpenAPI
document names the token scripts send (``Authorization: Bearer``, from ``ledger account
token``), so the Authorize button of /docs sends it with every try."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs/assets"
FILES = Path(fastapi_offline.__file__).parent / "static"
TOKEN = "token"
"""The security scheme's name in the OpenAPI document."""


class DocumentedAPI(FastAPI):
    """FastAPI whose documentation pages need nothing but this server, and whose OpenAPI
    document says how a caller signs in."""

    def __init__(self, **settings: Any) -> None:
        # no /redoc: its page loads a logo from its makers' site whatever it is given
        super().__init__(docs_url=None, redoc_url=None, **settings)
        self.mount(ASSETS, StaticFiles(directory=FILES), name="docs-assets")
        self.add_route("/docs", self.swagger_page, include_in_schema=False)

    def openapi(self) -> dict[str, Any]:
        """Every operation takes a bearer token, and none lists it as needed: a public
        league is read without one, and what a caller may do is each operation's 401 or
        403, decided by role."""
        if self.openapi_schema is None:
            document = super().openapi()
            document.setdefault("components", {})["securitySchemes"] = {
                TOKEN: {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "An account's API token: `ledger account token NAME`.",
                }
            }
            document["security"] = [{TOKEN: []}, {}]
        return self.openapi_schema or {}

    async def swagger_page(self, request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "").rstrip("/")
        return get_swagger_ui_html(
            openapi_url=f"{root}{self.openapi_url}",
            title=f"{self.title}: the API",
            swagger_js_url=f"{root}{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS}/favicon.png",
            # a token typed into Authorize is not kept in the browser's storage
            swagger_ui_parameters={"persistAuthorization": False},
        )
