// ESLint's recommended rules for the browser modules in static/js, plus a few for
// loose equality, var, needless reassignment and shadowed names. .ci/run lints with
// this before the tests.
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    // Patterns are relative to where eslint runs: .ci/run runs it from the repository
    // root, with --config naming this file.
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      ...js.configs.recommended.rules,
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-globals": "error",
      "no-shadow": "error",
      "no-useless-assignment": "error",  // recommended from ESLint 10 on
    },
  },
];
