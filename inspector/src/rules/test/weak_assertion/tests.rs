use super::*;
use crate::rules::fixture::hits;

#[test]
fn a_name_says_equality_or_no_error() {
    let named = |n: &str| {
        let m = Named::of(n);
        (m.equality, m.no_error)
    };
    assert_eq!(named("test_method_eq"), (true, false));
    assert_eq!(named("TestEqualityIsReflexive"), (true, false));
    assert_eq!(named("comparisons"), (true, false));
    assert_eq!(named("test_request_sequence"), (false, false));
    assert_eq!(
        named("should not throw unhandled errors when replacing"),
        (false, true)
    );
    assert_eq!(named("test_does_not_crash"), (false, true));
    assert_eq!(named("doesn't raise on None"), (false, true));
    assert_eq!(named("raises on bad input"), (false, false));
    assert_eq!(
        named("process exits cleanly after interval tasks complete"),
        (false, true)
    );
    assert_eq!(named("test_exit_code_is_one"), (false, false));
    assert_eq!(named("TestServerShutsDownGracefully"), (false, true));
}

#[test]
fn fires_on_a_tautology_in_a_rust_test_module() {
    let text = "pub fn f() -> u8 { 1 }\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn f_is_one() {\n        let _ = super::f();\n        assert!(true);\n    }\n    #[test]\n    fn later() {}\n}\n";
    assert_eq!(
        hits(&WeakAssertion::CANNOT_FAIL, "src/a.rs", text),
        vec![(
            7,
            "test `f_is_one` asserts something that cannot fail: `assert!(true);`".to_string()
        )]
    );
    // An example project's tests show the library to a reader: not the project's checks.
    assert!(hits(
        &WeakAssertion::CANNOT_FAIL,
        "examples/sqlite/inserts/src/a.rs",
        text
    )
    .is_empty());
    // The empty test is the pedantic rule's.
    assert_eq!(
        hits(&WeakAssertion::FREE, "src/a.rs", text),
        vec![(
            10,
            "test `later` has no assertion: it passes whatever the code does".to_string()
        )]
    );
}

#[test]
fn quiet_on_real_assertions_and_files_without_tests() {
    let text = "#[test]\nfn f_is_one() {\n    assert_eq!(super::f(), 1);\n}\n";
    assert!(hits(&WeakAssertion::CANNOT_FAIL, "tests/a.rs", text).is_empty());
    assert!(hits(&WeakAssertion::CANNOT_FAIL, "src/a.rs", "pub fn f() {}\n").is_empty());
    assert!(hits(
        &WeakAssertion::CANNOT_FAIL,
        "app/views.py",
        "def test_x():\n    pass\n"
    )
    .is_empty());
    // A benchmark measures: pytest collects it, but it checks nothing by design.
    assert!(hits(
        &WeakAssertion::FREE,
        "bench/test_benchmarks.py",
        "def test_x():\n    pass\n"
    )
    .is_empty());
}

#[test]
fn what_a_test_says_of_itself_excuses_but_does_not_drop() {
    use crate::rules::fixture::excused;
    let eq =
        "#[test]\nfn test_method_eq() {\n    let x = make();\n    assert_eq!(\"x\", \"x\");\n}\n";
    assert!(hits(&WeakAssertion::CANNOT_FAIL, "tests/eq.rs", eq).is_empty());
    assert_eq!(
        excused(&WeakAssertion::CANNOT_FAIL, "tests/eq.rs", eq),
        vec![(4, EQUALITY.to_string())]
    );
    let placeholder = "test('works', () => {\n  expect(true).toBe(true)\n})\n";
    assert!(hits(&WeakAssertion::CANNOT_FAIL, "test/a.test.js", placeholder).is_empty());
    assert_eq!(
        excused(&WeakAssertion::CANNOT_FAIL, "test/a.test.js", placeholder),
        vec![(2, PLACEHOLDER.to_string())]
    );
    let no_error = "test('does not throw on empty input', () => {\n  parse('')\n  // expect(parse('')).toBe(1)\n})\n";
    assert_eq!(
        excused(&WeakAssertion::CANNOT_FAIL, "test/b.test.js", no_error),
        vec![(3, NO_ERROR.to_string())]
    );
    // `assert True` after the code that could hang marks the end the test reached.
    let no_deadlock = "def test_no_deadlock_on_gc():\n    for _ in range(10):\n        logger.info('x')\n    assert True\n";
    assert_eq!(
        excused(
            &WeakAssertion::CANNOT_FAIL,
            "tests/test_locks.py",
            no_deadlock
        ),
        vec![(4, NO_ERROR.to_string())]
    );
    // The same tautology in a test named for what it computes is a finding.
    let envwrap = "def test_envwrap_types(monkeypatch):\n    monkeypatch.setenv('FUNC_number', '1')\n    assert 1, '1' == nofallback()\n";
    assert_eq!(
        hits(&WeakAssertion::CANNOT_FAIL, "tests/test_utils.py", envwrap).len(),
        1
    );
    // A placeholder that also calls its completion callback is still a placeholder.
    let done =
        "const assert = require('node:assert');\nit('using imported it', function (done) {\n  assert.ok(true);\n  done();\n});\n";
    assert_eq!(
        excused(
            &WeakAssertion::CANNOT_FAIL,
            "test/unit/tokens.spec.cjs",
            done
        ),
        vec![(3, PLACEHOLDER.to_string())]
    );
    let arrow = "const assert = require('assert');\nit('runs', (cb) => {\n  assert.ok(true);\n  cb()\n  run();\n});\n";
    assert_eq!(
        hits(&WeakAssertion::CANNOT_FAIL, "test/a.spec.js", arrow).len(),
        1
    );
}

#[test]
fn a_tautology_that_only_makes_a_typed_function_valid_is_excused() {
    use crate::rules::fixture::excused;
    let types = "import { expect, it } from 'vitest'\nit('can use exposed types', () => {\n  const api = create()\n  function checkAllTypes(\n    _getState: GetState,\n    _setState: SetState,\n  ) {\n    expect(true).toBeTruthy()\n  }\n  checkAllTypes(api.getState, api.setState)\n})\n";
    assert!(hits(&WeakAssertion::CANNOT_FAIL, "tests/types.test.tsx", types).is_empty());
    assert_eq!(
        excused(&WeakAssertion::CANNOT_FAIL, "tests/types.test.tsx", types).len(),
        1
    );
    let branch = types.replace("  ) {\n    expect", "  ) {}\n  if (api) {\n    expect");
    assert_eq!(
        hits(&WeakAssertion::CANNOT_FAIL, "tests/types.test.tsx", &branch).len(),
        1,
        "a tautology in a branch checks nothing"
    );
}

#[test]
fn a_tautology_marking_the_expected_except_path_is_excused() {
    use crate::rules::fixture::excused;
    let raised = "def test_bf_info(client):\n    try:\n        client.bf().create('b', expansion=2, noScale=True)\n        assert False\n    except RedisError:\n        assert True\n";
    assert!(hits(&WeakAssertion::CANNOT_FAIL, "tests/test_bloom.py", raised).is_empty());
    assert_eq!(
        excused(&WeakAssertion::CANNOT_FAIL, "tests/test_bloom.py", raised).len(),
        1
    );
}

#[test]
fn a_fixture_a_test_runner_runs_is_no_test_of_the_project() {
    let suite = "var assert = require('assert');\ndescribe('delayed', function () {\n  it('has no effect twice', function () {\n    assert(true);\n    run();\n  });\n});\n";
    assert!(hits(
        &WeakAssertion::CANNOT_FAIL,
        "test/integration/fixtures/delay.fixture.js",
        suite
    )
    .is_empty());
    assert_eq!(
        hits(
            &WeakAssertion::CANNOT_FAIL,
            "test/integration/delay.spec.js",
            suite
        )
        .len(),
        1
    );
}

#[test]
fn a_bare_constant_beside_real_checks_is_excused_a_meant_one_is_not() {
    use crate::rules::fixture::excused;
    // A value compared with itself checks its type's own `PartialEq`: no tautology in Rust.
    let reflexive = "#[test]\nfn test_new() {\n    let id = Prerelease::new(\"a\");\n    assert_eq!(id, id);\n    assert_eq!(id, id.clone());\n}\n";
    assert!(hits(
        &WeakAssertion::CANNOT_FAIL,
        "tests/test_identifier.rs",
        reflexive
    )
    .is_empty());
    let typed = "import {assert, _} from './spec_ts'\ntest('types are ok', () => {\n\tlet val = _ as Immutable<string[]>\n\tassert(val, _ as ReadonlyArray<string>)\n\texpect(true).toBe(true)\n})\n";
    assert!(hits(&WeakAssertion::CANNOT_FAIL, "__tests__/immutable.ts", typed).is_empty());
    assert_eq!(
        excused(&WeakAssertion::CANNOT_FAIL, "__tests__/immutable.ts", typed).len(),
        1
    );
    let settled = "import assert from 'node:assert';\ntest('cleared in a race', async () => {\n\tconst cleared = queue.onRateLimitCleared();\n\tawait cleared;\n\tassert.ok(true, 'cleared');\n});\n";
    assert_eq!(
        excused(&WeakAssertion::CANNOT_FAIL, "test/rate-limit.ts", settled).len(),
        1
    );
    let meant = "package exit\n\nimport \"github.com/stretchr/testify/assert\"\n\nfunc TestExit(t *testing.T) {\n\tstub := Stub()\n\tassert.Equal(t, 1, stub.Code)\n\tassert.True(t, true, stub.Exited, \"exited\")\n}\n";
    assert_eq!(
        hits(&WeakAssertion::CANNOT_FAIL, "exit_test.go", meant).len(),
        1,
        "a tautology naming a value of the test is a check gone wrong"
    );
}
