"""The API-coverage table of the conformance report: data, grouping, arithmetic, and refms's figures."""
from conformance import adapters, usage


def test_the_data_holds_only_names_of_mindspore_2_10():
    rows = usage.load_usage()
    assert len(rows) > 500
    assert all(count >= 5 and not name.startswith("_") for count, _, name in rows)
    assert rows == sorted(rows, key=lambda row: -row[0])
    names = {(namespace, name) for _, namespace, name in rows}
    assert ("mindspore.nn", "Dense") in names and ("mindspore", "Tensor") in names


def test_namespaces_are_grouped_by_prefix():
    assert usage.group_of("mindspore") == "mindspore (top level)"
    assert usage.group_of("mindspore.ops.operations") == "mindspore.ops"
    assert usage.group_of("mindspore.nn") == "mindspore.nn"
    assert usage.group_of("Tensor") == "Tensor methods"
    assert usage.group_of("mindspore.numpy") == usage.OTHER
    assert usage.group_of("mindspore.nnx") == usage.OTHER      # a prefix of a name is not a namespace


def test_rows_are_weighted_by_uses():
    rows = [(30, "mindspore.nn", "Dense"), (10, "mindspore.nn", "LSTM"), (5, "Tensor", "asnumpy")]
    table = usage.coverage_rows(rows, [True, False, True])
    by_name = {entry["namespace"]: entry for entry in table}
    assert by_name["mindspore.nn"]["names"] == 2 and by_name["mindspore.nn"]["present"] == 1
    assert by_name["mindspore.nn"]["weighted"] == 0.75
    assert by_name["mindspore.nn"]["most_used_missing"] == ["mindspore.nn.LSTM"]
    assert by_name["total"]["uses"] == 45 and by_name["total"]["present_uses"] == 35
    assert table[-1]["namespace"] == "total"


def test_refms_covers_the_names_it_is_known_to_have():
    table = usage.coverage(adapters.resolve("refms"))
    total = table[-1]
    assert total["namespace"] == "total" and total["names"] == len(usage.load_usage())
    by_name = {entry["namespace"]: entry for entry in table}
    # refms has nn.Conv2d, Tensor, set_context... but not every Tensor method: a real check, not all True.
    assert 0 < by_name["Tensor methods"]["present"] < by_name["Tensor methods"]["names"]
    assert by_name["mindspore.context"]["weighted"] > 0.9
    assert total["weighted"] > 0.85
