/**
 * Settings: the processing nodes (NodeODM / ClusterODM) with their health, forms to add,
 * edit, disable and remove one (no JavaScript needed), and every processing job.
 */
import { Form, Link } from '@remix-run/react'
import { DataTable, td } from '#app/components/dashboard/admin/ui.tsx'
import { TableCard } from '#app/components/ui/section-header.tsx'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'

import { elapsedOf, statusText, type PanelJob } from './processing-panel.tsx'

const ACTION = '/admin/processing-nodes'

export interface SettingsNode {
  id: number
  label: string
  url: string
  enabled: boolean
  online: boolean
  queueCount: number
  maxImages: number | null
  engineVersion: string | null
  lastSeenAt: string | null
  lastError: string | null
  hasToken: boolean
}

function NodeFields({ node }: { node?: SettingsNode }) {
  return (
    <>
      <label className="text-xs text-ink-600">
        Label
        <input
          name="label"
          required
          maxLength={100}
          defaultValue={node?.label}
          className="input mt-1 block w-full"
        />
      </label>
      <label className="text-xs text-ink-600">
        URL
        <input
          name="url"
          type="url"
          required
          maxLength={500}
          placeholder="http://odm.internal:3000"
          defaultValue={node?.url}
          className="input mt-1 block w-full"
        />
      </label>
      <label className="text-xs text-ink-600">
        Token {node?.hasToken ? '(kept; type a new one to replace it)' : '(optional)'}
        <input
          name="token"
          type="password"
          autoComplete="off"
          maxLength={500}
          className="input mt-1 block w-full"
        />
      </label>
    </>
  )
}

export function ProcessingNodesSection({
  nodes,
  jobs,
}: {
  nodes: SettingsNode[]
  jobs: Array<PanelJob & { projectId: number; projectName: string }>
}) {
  return (
    <div id="processing-nodes" className="space-y-6">
      <TableCard
        title="Processing nodes"
        description="NodeODM or ClusterODM servers the photos are processed on; each is checked every 30 seconds."
      >
        <DataTable
          columns={['Node', 'Status', 'Queue', 'Max photos', 'Engine', 'Actions']}
          isEmpty={nodes.length === 0}
          empty="No processing nodes. Add one to process photos."
        >
          {nodes.map((n) => (
            <tr key={n.id} data-testid={`node-row-${n.label}`}>
              <td className={td}>
                <p className="font-medium text-ink-950">{n.label}</p>
                <p className="break-all text-xs text-ink-500">{n.url}</p>
              </td>
              <td className={td}>
                <p className={n.online ? 'text-emerald-700' : 'text-red-700'}>
                  {!n.enabled ? 'Disabled' : n.online ? 'Online' : 'Offline'}
                </p>
                <p className="text-xs text-ink-500">
                  Last seen {formatDate(n.lastSeenAt, { withTime: true })}
                </p>
                {n.lastError ? <p className="text-xs text-ink-500">{n.lastError}</p> : null}
              </td>
              <td className={td}>{formatNumber(n.queueCount)}</td>
              <td className={td}>{n.maxImages === null ? '—' : formatNumber(n.maxImages)}</td>
              <td className={`${td} text-xs`}>{n.engineVersion ?? '—'}</td>
              <td className={td}>
                <div className="flex flex-wrap gap-2">
                  <Form method="post" action={ACTION}>
                    <input type="hidden" name="intent" value="node-enabled" />
                    <input type="hidden" name="id" value={n.id} />
                    <input type="hidden" name="enabled" value={String(!n.enabled)} />
                    <button type="submit" className="btn-secondary btn-sm">
                      {n.enabled ? 'Disable' : 'Enable'}
                    </button>
                  </Form>
                  <Form method="post" action={ACTION}>
                    <input type="hidden" name="intent" value="node-delete" />
                    <input type="hidden" name="id" value={n.id} />
                    <button type="submit" className="btn-secondary btn-sm" aria-label={`Remove ${n.label}`}>
                      Remove
                    </button>
                  </Form>
                </div>
                <details className="mt-2">
                  <summary className="cursor-pointer text-xs text-ink-600">Edit {n.label}</summary>
                  <Form method="post" action={ACTION} className="mt-2 grid gap-2">
                    <input type="hidden" name="intent" value="node-edit" />
                    <input type="hidden" name="id" value={n.id} />
                    <NodeFields node={n} />
                    {n.hasToken ? (
                      <label className="text-xs text-ink-600">
                        <input type="checkbox" name="clearToken" /> Remove the token
                      </label>
                    ) : null}
                    <button type="submit" className="btn-primary btn-sm">
                      Save node
                    </button>
                  </Form>
                </details>
              </td>
            </tr>
          ))}
        </DataTable>
        <Form
          method="post"
          action={ACTION}
          className="grid gap-2 border-t border-ink-100 p-4 sm:grid-cols-4 sm:items-end"
        >
          <input type="hidden" name="intent" value="node-add" />
          <NodeFields />
          <button type="submit" className="btn-primary btn-sm">
            Add node
          </button>
        </Form>
      </TableCard>

      <TableCard title="Processing jobs" description="The latest photogrammetry jobs of every project.">
        <DataTable
          columns={['Project', 'Node', 'Stage', 'Elapsed']}
          isEmpty={jobs.length === 0}
          empty="No processing jobs yet."
        >
          {jobs.map((j) => (
            <tr key={j.id} data-testid={`processing-row-${j.id}`}>
              <td className={td}>
                <Link
                  to={`/admin/projects/${j.projectId}#pd-processing`}
                  className="font-medium text-ink-950 underline"
                >
                  {j.projectName}
                </Link>
              </td>
              <td className={td}>{j.nodeLabel ?? '—'}</td>
              <td className={td}>
                {statusText(j)}
                {j.stage ? <p className="text-xs text-ink-500">{j.stage}</p> : null}
              </td>
              <td className={td}>{elapsedOf(j)}</td>
            </tr>
          ))}
        </DataTable>
      </TableCard>
    </div>
  )
}
