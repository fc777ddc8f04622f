import signal

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C as a terminal sends it: a run started in the background by a non-interactive shell
    (`cmd &`) inherits SIGINT ignored, and so would every process the Ctrl-C tests start (they
    then ran to the end, measured: 29 s where the interrupt stops them at once). A handler set
    here is reset to the default at each child's exec, where an ignored signal stays ignored."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="Rewrite golden/**/*.out.py and *.findings from the tool's current output.",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(autouse=True)
def user_cache_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Each test's own `$XDG_CACHE_HOME` (the result cache and its key live there), inherited by
    the runs it starts: no test reads or writes the cache of the user running the tests."""
    folder = tmp_path_factory.mktemp("xdg-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


@pytest.fixture(scope="session")
def campaign_fleet(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A campaign run once over a mixed fleet (tests/fleet.py), shared by the campaign tests."""
    from fleet import run_mixed_fleet

    return run_mixed_fleet(tmp_path_factory.mktemp("fleet"))
