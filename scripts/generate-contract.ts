// `npm run generate:contract`: writes the Java and Go drivers' copies of the contract (scripts/contract.ts).
import { writeFileSync } from 'node:fs';
import { absolute, renderContract } from './contract';

for (const f of renderContract()) {
  writeFileSync(absolute(f.path), f.text);
  console.log(`wrote ${f.path}`);
}
