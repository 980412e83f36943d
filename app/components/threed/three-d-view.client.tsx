/**
 * The 3D view's canvas (three.js; loaded only on this page): the textured model (GLB or 3D Tiles)
 * and the point clouds (COPC nodes or a thinned copy, by Range), orbit / pan / zoom by mouse and
 * touch, reset, colour by RGB or height (legend in metres), point size, a point budget, and the
 * distance and height difference between two picked points. The scene is `useThreeDScene`'s,
 * the controls `ThreeDControls`.
 */
import { DESKTOP_POINT_BUDGET, PHONE_POINT_BUDGET, type ThreeDSource } from '#app/domain/threed/three-d.ts'
import { useEffect, useRef, useState } from 'react'

import { resetView } from './scene.client.ts'
import { ThreeDControls } from './three-d-controls.tsx'
import { useThreeDScene, type ViewSettings } from './use-three-d-scene.client.ts'

function isPhone() {
  return window.matchMedia('(max-width: 640px), (pointer: coarse)').matches
}

export function ThreeDView({
  sources,
  stillUploadUrl,
}: {
  sources: ThreeDSource[]
  /** Where the first browser that drew the view leaves its still image (signed in; null: none). */
  stillUploadUrl: string | null
}) {
  const host = useRef<HTMLDivElement>(null)
  const [settings, setSettings] = useState<ViewSettings>({
    budget: null,
    colour: 'rgb',
    pointSize: 2,
    showModel: true,
    showCloud: true,
    measuring: false,
  })
  const view = useThreeDScene(host, sources, stillUploadUrl, settings)

  // The budget a phone starts with; chosen once in the browser.
  useEffect(
    () => setSettings((s) => ({ ...s, budget: isPhone() ? PHONE_POINT_BUDGET : DESKTOP_POINT_BUDGET })),
    [],
  )

  return (
    <section className="card overflow-hidden" aria-label="3D view" data-testid="three-d-view">
      <div
        ref={host}
        className="relative h-[60vh] min-h-[320px] w-full bg-ink-50"
        data-points={view.drawn.points}
        data-models={view.drawn.models}
        data-testid="three-d-host"
      />
      <ThreeDControls
        settings={settings}
        onSettings={(change) => setSettings((s) => ({ ...s, ...change }))}
        onReset={() => view.state.current && resetView(view.state.current)}
        picks={view.picks}
        onClearPicks={() => view.setPicks([])}
        hasModel={view.hasModel}
        hasClouds={view.clouds.length > 0}
        zRange={view.zRange}
        drawnPoints={view.drawn.points}
        status={view.status}
        error={view.error}
      />
    </section>
  )
}
