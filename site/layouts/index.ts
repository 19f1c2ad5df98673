import type { Layouts } from '../../runtime/index.ts';
import { DefaultLayout } from './default-layout.tsx';
import { HomeLayout } from './home-layout.tsx';

/** The two layouts of SPEC.md section 2, by the names the route table uses. */
export const layouts: Layouts = { home: HomeLayout, default: DefaultLayout };
