"""The first screen of a stored document is ready before anyone looks: processing
renders its first pages' images, at the scale the viewer asks for them, into the
page-image cache, and the first view is served from there."""

from __future__ import annotations

import hashlib
import io
import re

import pytest

from tests.conftest import APEX, make_app
from visualiser import render
from visualiser.knowledgebase import new_metadata
from visualiser.resources import samples_dir, static_dir

APEX_BYTES = (samples_dir() / APEX).read_bytes()  # 4 pages
APEX_ID = hashlib.sha256(APEX_BYTES).hexdigest()


@pytest.fixture
def processed_app(tmp_path):
    app = make_app(tmp_path)
    web = app.extensions["visualiser"]
    kb = web.store.create_knowledgebase("kb", new_metadata())
    response = app.test_client().post(
        f"/api/knowledgebases/{kb.id}/documents",
        data={"file": (io.BytesIO(APEX_BYTES), APEX)}, content_type="multipart/form-data")
    assert response.status_code == 202
    assert web.processor.wait(60)
    app.kb_id = kb.id
    yield app
    web.close()


def test_processing_renders_the_first_screen_into_the_cache(processed_app):
    images = processed_app.extensions["visualiser"].images
    scale = render.FIRST_SCREEN_SCALE
    for number in range(1, render.FIRST_SCREEN_PAGES + 1):
        path = images.path(APEX_ID, number, scale)
        assert path.is_file() and path.read_bytes()[:4] == b"\x89PNG", number
    assert not images.path(APEX_ID, 4, scale).exists()  # beyond the first screen


def test_the_first_view_serves_them_without_rendering(processed_app, monkeypatch):
    def no_render(*args, **kwargs):
        raise AssertionError("a first-screen page was rendered at view time")

    monkeypatch.setattr(render, "render_page_png", no_render)
    client = processed_app.test_client()
    base = f"/api/knowledgebases/{processed_app.kb_id}/documents/{APEX_ID}/pages"
    for number in range(1, render.FIRST_SCREEN_PAGES + 1):
        with client.get(f"{base}/{number}.png?scale={render.FIRST_SCREEN_SCALE}") as response:
            assert response.status_code == 200 and response.data[:4] == b"\x89PNG"


def test_the_scale_is_the_viewers_default_zoom():
    css = (static_dir() / "css" / "app.css").read_text()
    zoom = re.search(r"--zoom:\s*([0-9.]+)", css)
    assert zoom is not None and float(zoom.group(1)) == render.FIRST_SCREEN_SCALE


def test_a_page_that_cannot_be_drawn_does_not_fail_the_processing(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise render.BadParameter("scale", "this page cannot be drawn")

    monkeypatch.setattr(render, "render_page_png", broken)
    app = make_app(tmp_path)
    web = app.extensions["visualiser"]
    try:
        kb = web.store.create_knowledgebase("kb", new_metadata())
        app.test_client().post(
            f"/api/knowledgebases/{kb.id}/documents",
            data={"file": (io.BytesIO(APEX_BYTES), APEX)}, content_type="multipart/form-data")
        assert web.processor.wait(60)
        assert web.store.document(kb.id, APEX_ID)["state"] == "ready"
    finally:
        web.close()
