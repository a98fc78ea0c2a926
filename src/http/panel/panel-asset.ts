/** A file the panel serves from /panel/assets/. */
export interface PanelAsset {
  body: string;
  type: string;
}

export type PanelAssets = Record<string, PanelAsset>;
