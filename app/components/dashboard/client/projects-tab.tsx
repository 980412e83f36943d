/**
 * My Projects: project cards, View Details, Complete Flight
 * Plan and delete for drafts, Pay Now for an unpaid quote. Dialogs are URL states
 * (`?tab=projects&view=ID`, `&confirmDelete=ID`); with JavaScript they open in place.
 */
import type { SerializeFrom } from '@remix-run/node'
import { Link, useSearchParams } from '@remix-run/react'
import { DeliverablesPanel } from '#app/components/files/deliverables-panel.tsx'
import { LandOwnerPanel } from '#app/components/files/land-owner-panel.tsx'
import {
  ProcessingStatusLine,
  type ProcessingSummary,
} from '#app/components/processing/processing-status-line.tsx'
import { DownloadAllLink } from '#app/components/sharing/download-all-link.tsx'
import { SharePanel } from '#app/components/sharing/share-panel.tsx'
import { ConfirmDialog } from '#app/components/ui/confirm-dialog.tsx'
import { CardListSection } from '#app/components/ui/section-header.tsx'
import { UrlDialog } from '#app/components/ui/url-dialog.tsx'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import type { ProjectCard } from '#app/domain/dashboard/project-card.server.ts'
import type { Deliverable } from '#app/domain/deliverables/deliverable.ts'
import type { FileView } from '#app/domain/files/file-view.ts'
import { projectTypeLabel } from '#app/domain/projects/project-schemas.ts'
import { statusLabel } from '#app/domain/projects/status.ts'
import type { SharePanelData } from '#app/domain/sharing/share-panel.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatRand, formatSquareMetres } from '#app/lib/format/numbers.ts'
import { useState } from 'react'

import { ProjectListCard } from '../project-list-card.tsx'
import { FlyAgainButton } from './fly-again-button.tsx'
import { ProjectDetails } from './project-details.tsx'
import { RepeatScheduleForm } from './repeat-schedule-form.tsx'

/** sessionStorage keys of the product's hand-off to the planner and the payment. */
export const PLANNER_PROJECT_KEY = 'flightPlannerProject'
export const PAYMENT_PROJECT_KEY = 'paymentProject'

export function rememberProject(key: string, project: { id: number; name: string; location: string | null }) {
  try {
    sessionStorage.setItem(
      key,
      JSON.stringify({ id: project.id, name: project.name, address: project.location }),
    )
  } catch {
    // Storage may be unavailable (private mode); the id in the URL is enough.
  }
}

const LIST_URL = '?tab=projects'

export function ProjectsTab({
  projects,
  files = {},
  deliverables = {},
  shares = {},
  processing = {},
}: {
  projects: ProjectCard[]
  files?: Record<number, FileView[]>
  deliverables?: Record<number, Deliverable[]>
  shares?: Record<number, SerializeFrom<SharePanelData>>
  processing?: Record<number, ProcessingSummary>
}) {
  const [params] = useSearchParams()
  const hydrated = useHydrated()
  const [viewing, setViewing] = useState<number | null>(null)
  const [deleting, setDeleting] = useState<number | null>(null)
  const viewId = viewing ?? Number(params.get('view'))
  const deleteId = deleting ?? Number(params.get('confirmDelete'))
  const viewed = projects.find((p) => p.id === viewId)
  const toDelete = projects.find((p) => p.id === deleteId && p.status === 'draft')

  return (
    <CardListSection
      id="projects-heading"
      title="My Projects"
      description="Your surveys, from draft to delivered data."
      actions={
        <Link to="?tab=create" className="btn-secondary btn-sm">
          New project
        </Link>
      }
      isEmpty={projects.length === 0}
      empty="No projects yet. Create your first project above!"
    >
      <ul className="grid grid-cols-1 gap-4 md:grid-cols-2" data-testid="project-list">
        {projects.map((project) => (
          <ProjectListCard
            key={project.id}
            name={project.name}
            detail={statusLabel(project)}
            status={project.status}
            testId={`project-card-${project.id}`}
            facts={[
              ['Type', projectTypeLabel(project.projectType)],
              ['Location', project.location ?? '—'],
              project.areaSqm ? ['Area', formatSquareMetres(project.areaSqm)] : null,
              project.quoteAmount
                ? [
                    'Quote',
                    <span key="quote" className="font-semibold text-ink-900">
                      {formatRand(project.quoteAmount)}
                    </span>,
                  ]
                : null,
              ['Created', formatDate(project.createdAt)],
            ]}
            actions={
              <>
                <Link
                  to={`${LIST_URL}&view=${project.id}`}
                  preventScrollReset
                  className="btn-secondary btn-sm"
                  onClick={(event) => {
                    if (!hydrated) return
                    event.preventDefault()
                    setViewing(project.id)
                  }}
                >
                  View Details
                </Link>
                {project.status === 'draft' ? (
                  <>
                    <Link
                      to={`/flight-planner?projectId=${project.id}`}
                      className="btn-primary btn-sm"
                      onClick={() => rememberProject(PLANNER_PROJECT_KEY, project)}
                    >
                      Complete Flight Plan
                    </Link>
                    <Link
                      to={`${LIST_URL}&confirmDelete=${project.id}`}
                      preventScrollReset
                      className="btn-danger-quiet btn-sm"
                      onClick={(event) => {
                        if (!hydrated) return
                        event.preventDefault()
                        setDeleting(project.id)
                      }}
                    >
                      Delete
                    </Link>
                  </>
                ) : null}
                {project.canPay ? (
                  <>
                    <Link
                      to={`/checkout/${project.id}`}
                      className="btn-primary btn-sm"
                      onClick={() => rememberProject(PAYMENT_PROJECT_KEY, project)}
                    >
                      Pay Now
                    </Link>
                    <Link
                      to={`/flight-planner?projectId=${project.id}`}
                      className="btn-ghost btn-sm"
                      onClick={() => rememberProject(PLANNER_PROJECT_KEY, project)}
                    >
                      Edit Flight Plan
                    </Link>
                  </>
                ) : null}
                {project.canRepeat ? (
                  <FlyAgainButton projectId={project.id} testId={`fly-again-${project.id}`} />
                ) : null}
                {project.canCancel ? (
                  <Link
                    to={`/projects/${project.id}/cancel`}
                    className="btn-danger-quiet btn-sm"
                    data-testid="cancel-project"
                  >
                    Cancel project
                  </Link>
                ) : null}
              </>
            }
          />
        ))}
      </ul>

      {viewed ? (
        <UrlDialog
          title={viewed.name}
          description="Project details"
          closeTo={LIST_URL}
          onClose={hydrated ? () => setViewing(null) : undefined}
          size="lg"
          testId="project-details-dialog"
          footer={
            <>
              {viewed.status === 'draft' ? (
                <Link
                  to={`/flight-planner?projectId=${viewed.id}`}
                  className="btn-primary btn-sm"
                  onClick={() => rememberProject(PLANNER_PROJECT_KEY, viewed)}
                >
                  Complete Flight Plan
                </Link>
              ) : null}
              {viewed.canPay ? (
                <Link
                  to={`/checkout/${viewed.id}`}
                  className="btn-primary btn-sm"
                  onClick={() => rememberProject(PAYMENT_PROJECT_KEY, viewed)}
                >
                  Pay Now
                </Link>
              ) : null}
              {viewed.canRepeat ? <FlyAgainButton projectId={viewed.id} testId="fly-again-details" /> : null}
              {viewed.canCancel ? (
                <Link to={`/projects/${viewed.id}/cancel`} className="btn-danger-quiet btn-sm">
                  Cancel project
                </Link>
              ) : null}
            </>
          }
        >
          <ProjectDetails project={viewed} />
          <ProcessingStatusLine
            projectId={viewed.id}
            job={processing[viewed.id]}
            projectCompleted={viewed.status === 'completed'}
          />
          {viewed.canRepeat ? <RepeatScheduleForm projectId={viewed.id} siteId={viewed.siteId} /> : null}
          <LandOwnerPanel
            projectId={viewed.id}
            files={files[viewed.id] ?? []}
            action={`/dashboard?tab=projects&view=${viewed.id}`}
          />
          <DeliverablesPanel
            project={viewed}
            files={files[viewed.id] ?? []}
            deliverables={deliverables[viewed.id] ?? []}
          />
          {shares[viewed.id]?.deliverables.length ? (
            <>
              <DownloadAllLink projectId={viewed.id} />
              <SharePanel
                projectId={viewed.id}
                deliverables={shares[viewed.id]!.deliverables}
                links={shares[viewed.id]!.links}
                returnTo={`/dashboard?tab=projects&view=${viewed.id}`}
              />
            </>
          ) : null}
        </UrlDialog>
      ) : null}

      {toDelete ? (
        <DeleteDraftDialog project={toDelete} onClose={hydrated ? () => setDeleting(null) : undefined} />
      ) : null}
    </CardListSection>
  )
}

function DeleteDraftDialog({ project, onClose }: { project: ProjectCard; onClose?: () => void }) {
  return (
    <ConfirmDialog
      title="Delete draft project?"
      closeTo={LIST_URL}
      onClose={onClose}
      replace
      action="/dashboard?tab=projects"
      intent="delete-draft"
      fields={{ projectId: project.id }}
      confirmLabel="Delete draft"
      pendingLabel="Deleting…"
      testId="delete-draft-dialog"
    >
      <p>‘{project.name}’ and anything you entered for it will be removed. This cannot be undone.</p>
    </ConfirmDialog>
  )
}
