import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'

import { ToastProvider } from './toaster.tsx'

describe('ToastProvider', () => {
  it('renders the server toast in the first render (the page without JavaScript shows it too)', () => {
    const html = renderToStaticMarkup(
      <ToastProvider serverToast={{ id: 'b2', title: 'Hub Updated', description: 'Saved.', type: 'success' }}>
        <main />
      </ToastProvider>,
    )
    expect(html).toContain('data-testid="toast"')
    expect(html).toContain('Hub Updated')
    expect(html).toContain('id="toast-close-b2"')
  })

  it('renders no toast without one', () => {
    expect(renderToStaticMarkup(<ToastProvider serverToast={null}>x</ToastProvider>)).not.toContain('toast')
  })
})
