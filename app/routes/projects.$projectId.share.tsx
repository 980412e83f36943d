/**
 * `/projects/{id}/share` — the project's share links (ADR 233) for its client and admins:
 * the Share form, the links with their counts and Revoke, and, right after making one, the
 * new link (shown this once, with a copy button when JavaScript runs). Works without JavaScript.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { ProjectSubpage } from '#app/components/layout/project-subpage.tsx'
import { CreatedShareLink } from '#app/components/sharing/created-share-link.tsx'
import { SharePanel } from '#app/components/sharing/share-panel.tsx'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { sharePanelData } from '#app/domain/sharing/share-panel.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'
import { handleShareForm } from '#app/routes/_helpers/share-page.server.ts'
import type { User } from '#db/schema.ts'

export const meta: MetaFunction = () => [{ title: 'Share deliverables · Kestrel Aerial Survey' }]

function backTo(user: Pick<User, 'role'>, projectId: number) {
  return user.role === 'admin' ? `/admin/projects/${projectId}` : `/dashboard?tab=projects&view=${projectId}`
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const projectId = pageId(params.projectId)
  // Service refusals are the page's error screen (404 not theirs, 403 the pilot).
  return asPage(() => {
    const project = requireVisibleProject(user, projectId)
    return json({
      project: { id: project.id, name: project.name },
      back: backTo(user, project.id),
      ...sharePanelData(user, project.id),
    })
  })
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const projectId = pageId(params.projectId)
  await asPage(() => requireVisibleProject(user, projectId))
  return handleShareForm(user, projectId, await readFormBody(request))
}

export default function SharePage() {
  const { project, back, deliverables, links, surveyDate } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const fieldErrors = actionData?.result?.error ?? undefined
  const errors = {
    fileIds: fieldErrors?.fileIds ?? undefined,
    expiresInDays: fieldErrors?.expiresInDays ?? undefined,
    form: actionData?.error && !fieldErrors?.fileIds ? [actionData.error] : undefined,
  }
  return (
    <ProjectSubpage
      title={
        <>
          Share {project.name}
          {surveyDate ? ` (survey of ${surveyDate})` : null}
        </>
      }
      description="Links to the deliverables, for people without an account."
      back={back}
    >
      {actionData?.created ? <CreatedShareLink created={actionData.created} /> : null}
      <SharePanel
        projectId={project.id}
        deliverables={deliverables}
        links={links}
        returnTo={`/projects/${project.id}/share`}
        errors={errors}
      />
    </ProjectSubpage>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
