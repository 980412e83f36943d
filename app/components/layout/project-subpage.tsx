import { BackLink } from '#app/components/ui/back-link.tsx'
import type { ReactNode } from 'react'

import { AppShell } from './app-shell.tsx'
import { PageCard } from './page-card.tsx'

/** A page for one part of a project (its processing, its share links): one card, ending with the way back. */
export function ProjectSubpage({
  title,
  description,
  back,
  children,
}: {
  title: ReactNode
  description: string
  back: string
  children: ReactNode
}) {
  return (
    <AppShell>
      <main className="mx-auto max-w-2xl px-4 py-8 sm:px-6 sm:py-10">
        <PageCard title={title} description={description}>
          {children}
          <BackLink to={back}>Back to the project</BackLink>
        </PageCard>
      </main>
    </AppShell>
  )
}
