import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'public/build/**',
      'public/sw.js',
      'server-build/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'tests/.tmp/**',
      'data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js}'],
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error', 'log'] }],
    },
  },
  {
    // Outbound HTTP goes through outboundRequest: every undici that runs on Node 20 (fetch) can
    // crash the process when a peer closes mid-body (app/lib/http/outbound.server.ts).
    files: ['app/**/*.server.ts', 'server/**/*.ts', 'server.ts', 'scripts/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Use outboundRequest (#app/lib/http/outbound.server.ts), not fetch.' },
      ],
    },
  },
  {
    // Leaflet puts a string given to a tooltip or popup into innerHTML: map labels (zone
    // names come from uploaded KML) are passed as elements whose textContent is set.
    files: ['app/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(bindTooltip|bindPopup|setTooltipContent|setPopupContent|setContent)$/] > :matches(TemplateLiteral, Literal, BinaryExpression).arguments:first-child',
          message: 'Pass Leaflet an element with textContent, never a string (it becomes HTML).',
        },
      ],
    },
  },
)
