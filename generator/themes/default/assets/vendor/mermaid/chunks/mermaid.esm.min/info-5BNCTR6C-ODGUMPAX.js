import{a as o,b as e}from"./chunk-G35KUZXD.js";import"./chunk-MWUZ53VY.js";import"./chunk-V3YWWTDH.js";export{o as InfoModule,e as createInfoServices};
