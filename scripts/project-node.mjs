#!/usr/bin/env node
// Puts the project's Node (the major .nvmrc names) first on a shell's PATH, installing it from npm into .node/ when
// the machine's Node is another major; prints nothing when it already is the right one. For contributors and CI:
//
//   eval "$(node scripts/project-node.mjs)"    then npm ci, npm test, npm run mock ... run on it
import { onProjectNode, projectNodeBinDir } from './lib/project-node.mjs';

const dir = projectNodeBinDir();
if (!onProjectNode()) console.log(`export PATH='${dir.replaceAll("'", "'\\''")}':"$PATH"`);
