import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { LOAD_RSA_CONFIRM } from '#app/components/dashboard/admin/airspace-tab.tsx'
import { ConfirmDialog } from '#app/components/ui/confirm-dialog.tsx'
import { loadRsaAirspaceByAdmin } from '#app/domain/admin/airspace-admin.server.ts'
import { AIRSPACE_ATTRIBUTION } from '#app/domain/airspace/zone-kinds.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { redirectWithToast } from '#app/domain/http/toast.server.ts'

const BACK = '/admin?tab=airspace'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return json({})
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  await readFormBody(request)
  try {
    const { inserted } = await loadRsaAirspaceByAdmin(admin.id)
    return redirectWithToast(BACK, {
      title: 'RSA Airspace Data Loaded',
      description: `${inserted} zones loaded.`,
    })
  } catch (error) {
    console.error('[admin] loading RSA airspace failed', error)
    return redirectWithToast(BACK, {
      type: 'error',
      title: 'Load Failed',
      description: 'Failed to load RSA airspace data',
    })
  }
}

/** The confirmation (ADR 122): the tab's button links here, with and without JavaScript. */
export default function LoadRsaDialog() {
  return (
    <ConfirmDialog
      title="Load RSA airspace data"
      closeTo={BACK}
      confirmLabel="Load RSA data"
      pendingLabel="Loading…"
      tone="primary"
    >
      <p>{LOAD_RSA_CONFIRM}</p>
      <p className="text-xs text-ink-500">{AIRSPACE_ATTRIBUTION}</p>
    </ConfirmDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
