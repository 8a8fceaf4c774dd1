s|`\.\./shared/design/STORAGE-PROTOCOL\.md`|[storage-protocol.md](storage-protocol.md)|g
s|docs/STORAGE-PROTOCOL\.md|docs/storage-protocol.md|g
s|the SDK (STORAGE-PROTOCOL\.md ' +$|the SDK (docs/storage-protocol.md#48-resumable-upload' +|
s|'§4\.8, chunks of 256 KiB doubling|', chunks of 256 KiB doubling|g
s|STORAGE-PROTOCOL\.md §4\.8 b–e|docs/storage-protocol.md#48-resumable-upload, b–e|g
s|STORAGE-PROTOCOL\.md §4\.8, §6\.2|docs/storage-protocol.md#48-resumable-upload, docs/storage-protocol.md#62-chunk-sizes|g
s|STORAGE-PROTOCOL\.md §4\.6, without the emulator's quirks of §10\.3|docs/storage-protocol.md#46-list, without the emulator's quirks of docs/storage-protocol.md#103-listing-pages|g
s|STORAGE-PROTOCOL\.md §3\.1|docs/storage-protocol.md#31-fields-the-server-returns|g
s|STORAGE-PROTOCOL\.md §3\.2|docs/storage-protocol.md#32-writable-metadata|g
s|STORAGE-PROTOCOL\.md §4\.6|docs/storage-protocol.md#46-list|g
s|STORAGE-PROTOCOL\.md §4\.7|docs/storage-protocol.md#47-multipart-upload|g
s|STORAGE-PROTOCOL\.md §4\.8|docs/storage-protocol.md#48-resumable-upload|g
s|STORAGE-PROTOCOL\.md §4|docs/storage-protocol.md#4-operations|g
s|STORAGE-PROTOCOL\.md §5\.1|docs/storage-protocol.md#51-session-state|g
s|STORAGE-PROTOCOL\.md §6\.2|docs/storage-protocol.md#62-chunk-sizes|g
s|STORAGE-PROTOCOL\.md §6|docs/storage-protocol.md#6-upload-task-behaviour|g
s|STORAGE-PROTOCOL\.md §7|docs/storage-protocol.md#7-request-retry-and-back-off|g
s|STORAGE-PROTOCOL\.md §8\.1|docs/storage-protocol.md#81-error-body|g
s|STORAGE-PROTOCOL\.md §8\.2|docs/storage-protocol.md#82-status-to-error-code|g
s|STORAGE-PROTOCOL\.md §8\.3|docs/storage-protocol.md#83-error-codes-and-texts|g
s|STORAGE-PROTOCOL\.md|docs/storage-protocol.md|g
s|ORIGINAL-FLAWS #4, #12|docs/product-spec.md#flaw-4, docs/product-spec.md#flaw-12|g
s|ORIGINAL-FLAWS #11, #13|docs/product-spec.md#flaw-11, docs/product-spec.md#flaw-13|g
s|west of UTC (#5)|west of UTC (docs/product-spec.md#flaw-5)|g
s|ORIGINAL-FLAWS #20|docs/product-spec.md#flaw-20|g
s|ORIGINAL-FLAWS #19|docs/product-spec.md#flaw-19|g
s|ORIGINAL-FLAWS #18|docs/product-spec.md#flaw-18|g
s|ORIGINAL-FLAWS #17|docs/product-spec.md#flaw-17|g
s|ORIGINAL-FLAWS #16|docs/product-spec.md#flaw-16|g
s|ORIGINAL-FLAWS #15|docs/product-spec.md#flaw-15|g
s|ORIGINAL-FLAWS #14|docs/product-spec.md#flaw-14|g
s|ORIGINAL-FLAWS #13|docs/product-spec.md#flaw-13|g
s|ORIGINAL-FLAWS #12|docs/product-spec.md#flaw-12|g
s|ORIGINAL-FLAWS #11|docs/product-spec.md#flaw-11|g
s|ORIGINAL-FLAWS #10|docs/product-spec.md#flaw-10|g
s|ORIGINAL-FLAWS #9|docs/product-spec.md#flaw-9|g
s|ORIGINAL-FLAWS #8|docs/product-spec.md#flaw-8|g
s|ORIGINAL-FLAWS #7|docs/product-spec.md#flaw-7|g
s|ORIGINAL-FLAWS #6|docs/product-spec.md#flaw-6|g
s|ORIGINAL-FLAWS #5|docs/product-spec.md#flaw-5|g
s|ORIGINAL-FLAWS #4|docs/product-spec.md#flaw-4|g
s|ORIGINAL-FLAWS #3|docs/product-spec.md#flaw-3|g
s|ORIGINAL-FLAWS #2|docs/product-spec.md#flaw-2|g
s|ORIGINAL-FLAWS #1|docs/product-spec.md#flaw-1|g
s|ARCHITECTURE\.md "Security defaults", |docs/storage-protocol.md#13-authentication-and-rules, |g
s|(ARCHITECTURE\.md "Tests")|(docs/architecture.md#tests)|g
s|on a real server (ARCHITECTURE\.md$|on a real server (see|
s|^ \* "Tests")\. `npm test`| * docs/architecture.md#tests). `npm test`|
s|ARCHITECTURE\.md|docs/architecture.md|g
s|The download URL (spec §7)|The download URL (docs/storage-protocol.md#42-download-urls-and-tokens)|g
s|spec §4 "Login"|docs/product-spec.md#42-login|g
s|spec §4 "Logout"|docs/product-spec.md#43-logout|g
s|Spec §4 "Auth state"|docs/product-spec.md#41-auth-state|g
s|spec §3 "Auth user"|docs/product-spec.md#34-auth-user|g
s|spec §3: collection users|docs/product-spec.md#33-user-profile: collection users|g
s|spec §2 Dashboard / Create / Project details|docs/product-spec.md#2-screens-and-routes: Dashboard, Create, Project details|g
s|Spec §2: nothing is rendered|docs/product-spec.md#41-auth-state: nothing is rendered|g
s|first auth state is known (spec §2)|first auth state is known (docs/product-spec.md#41-auth-state)|g
s|go to /login (spec §2)|go to /login (docs/product-spec.md#21-routes-and-access)|g
s|goes to /login (spec §2)|goes to /login (docs/product-spec.md#21-routes-and-access)|g
s|The route table of spec §2|The route table of docs/product-spec.md#21-routes-and-access|g
s|filter buttons (spec §2)|filter buttons (docs/product-spec.md#23-dashboard)|g
s|spec §2|docs/product-spec.md#2-screens-and-routes|g
s|spec §5|docs/product-spec.md#52-signup-thumbnail|g
s|spec §6|docs/product-spec.md#6-permissions|g
s|spec §7|docs/product-spec.md#7-calls-to-the-backend|g
s|spec §8|docs/product-spec.md#8-messages|g
s|Spec §9|docs/product-spec.md#9-constants-and-limits|g
s|spec §9|docs/product-spec.md#9-constants-and-limits|g
s|docs/decisions/001-layout\.md|docs/decisions/001-layout-and-stack.md|g
