"""The OpenAPI document as this server runs: its description, bearer auth only when a token is set,
and the question length limit the server enforces."""

from __future__ import annotations

from fastapi import FastAPI

DESCRIPTION = ("Questions about company filings, answered with the page, the quote and the arithmetic that "
               "prove them. Every error is `{\"error\": {\"code\", \"message\"}}`. When the server runs with "
               "DOCQA_API_TOKEN (or DOCQA_API_TOKENS), every /api call needs `Authorization: Bearer <token>`; "
               "with several tokens each sees only the questions and threads asked with it. A JSON body "
               "over DOCQA_MAX_JSON_KB or an upload over DOCQA_MAX_UPLOAD_REQUEST_MB is refused with 413.")


def fit_openapi(app: FastAPI, token_required: bool, max_question_chars: int) -> None:
    """The OpenAPI document as this server runs: bearer auth only when DOCQA_API_TOKEN is set (else
    no security requirement, as the code has none), and the question length limit it enforces."""
    build = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = build()
        if not token_required:
            for operations in schema.get("paths", {}).values():
                for operation in operations.values():
                    if isinstance(operation, dict):
                        operation.pop("security", None)
                        operation.get("responses", {}).pop("401", None)
            schema.get("components", {}).pop("securitySchemes", None)
        question = schema.get("components", {}).get("schemas", {}).get("AskIn", {}).get("properties", {}).get("question")
        if question is not None:
            question["maxLength"] = max_question_chars
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
