import type { Layouts } from '../../runtime/index.ts';
import { DefaultLayout } from './default-layout.tsx';
import { HomeLayout } from './home-layout.tsx';

/** The two layouts of docs/decisions/route-table.md, by the names the route table uses. */
export const layouts: Layouts = { home: HomeLayout, default: DefaultLayout };
