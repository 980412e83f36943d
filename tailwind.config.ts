import type { Config } from 'tailwindcss'

export default {
  // Server-only modules and tests hold no class names; scanned, their regexes (`/[-:.]/`)
  // became a broken arbitrary-property rule.
  content: ['./app/**/*.{ts,tsx}', '!./app/**/*.server.{ts,tsx}', '!./app/**/*.test.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        // Kestrel: deep night-sky navy with a falcon-amber accent.
        ink: {
          50: '#f4f6fa',
          100: '#e6ebf3',
          200: '#c9d3e3',
          300: '#9eafc9',
          400: '#6c83a8',
          500: '#4b638a',
          600: '#3a4e70',
          700: '#2f3f5b',
          800: '#1c2639',
          900: '#111827',
          950: '#0a0f1a',
        },
        amber: {
          50: '#fff8eb',
          100: '#feeac7',
          200: '#fdd48a',
          300: '#fcb84d',
          400: '#fb9f24',
          500: '#f57c0b',
          600: '#d95a06',
          700: '#b43d09',
          800: '#922f0e',
          900: '#78280f',
        },
      },
      fontFamily: {
        sans: [
          'Inter',
          'ui-sans-serif',
          'system-ui',
          '-apple-system',
          'Segoe UI',
          'Roboto',
          'Helvetica Neue',
          'Arial',
          'sans-serif',
        ],
        display: ['ui-sans-serif', 'system-ui', '-apple-system', 'Segoe UI', 'Roboto', 'sans-serif'],
      },
      boxShadow: {
        card: '0 1px 2px rgba(16,24,40,.06), 0 4px 16px rgba(16,24,40,.06)',
      },
    },
  },
  plugins: [],
} satisfies Config
