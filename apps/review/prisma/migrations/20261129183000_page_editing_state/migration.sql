-- CreateTable
CREATE TABLE "page_editing_state" (
    "change_request_id" TEXT NOT NULL,
    "page_id" TEXT NOT NULL,
    "state" BYTEA NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "page_editing_state_pkey" PRIMARY KEY ("change_request_id","page_id")
);

-- AddForeignKey
ALTER TABLE "page_editing_state" ADD CONSTRAINT "page_editing_state_change_request_id_fkey" FOREIGN KEY ("change_request_id") REFERENCES "change_request"("id") ON DELETE CASCADE ON UPDATE CASCADE;
