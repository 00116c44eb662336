// Lint: typescript-eslint's recommended rules on top of ESLint's, for src, scripts and tests.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", "test-output/", "ui/**/*.html", ".stryker-tmp*/", "reports/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly", performance: "readonly", Buffer: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: "Use the injected Clock, not Date.now()." },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "Use the injected Clock, not new Date()." },
      ],
    },
  },
  {
    files: ["test/**", "bench/**", "scripts/**", "src/base/clock.ts"],
    rules: { "no-restricted-syntax": "off" },
  },
);
