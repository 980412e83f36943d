import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'

import { StatusButton } from './status-button.tsx'

const classesOf = (html: string) => /class="([^"]*)"/.exec(html)![1]!.split(' ')

describe('StatusButton', () => {
  it('is the primary orange button by default, and only then', () => {
    const primary = renderToStaticMarkup(
      <StatusButton pending={false} pendingLabel="Saving">
        Save
      </StatusButton>,
    )
    expect(classesOf(primary)).toContain('btn-primary')
    for (const variant of ['secondary', 'danger', 'danger-quiet'] as const) {
      const html = renderToStaticMarkup(
        <StatusButton pending={false} pendingLabel="Working" variant={variant} className="btn-sm">
          Go
        </StatusButton>,
      )
      expect(classesOf(html)).toEqual([`btn-${variant}`, 'btn-sm'])
      expect(html).toContain(`data-variant="${variant}"`)
    }
  })

  it('shows the busy label and is disabled while pending', () => {
    const html = renderToStaticMarkup(
      <StatusButton pending pendingLabel="Deleting…" variant="danger">
        Delete
      </StatusButton>,
    )
    expect(html).toContain('Deleting…')
    expect(html).toContain('disabled=""')
    expect(html).toContain('aria-busy="true"')
  })
})
