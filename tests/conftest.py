import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="Rewrite golden/**/*.out.py and *.findings from the tool's current output.",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def campaign_fleet(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A campaign run once over a mixed fleet (tests/fleet.py), shared by the campaign tests."""
    from fleet import run_mixed_fleet

    return run_mixed_fleet(tmp_path_factory.mktemp("fleet"))
