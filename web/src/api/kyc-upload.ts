import * as api from './calls';

type KycType = 'image/jpeg' | 'image/png' | 'application/pdf';

/** Uploads one KYC file (base64 in JSON, as the operation takes it) and returns its private path. */
export async function uploadKycFile(fileName: string, contentType: KycType, contentBase64: string): Promise<string> {
  return (await api.uploadKycFile({ fileName, contentType, contentBase64 })).path;
}

export function fileToBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export async function uploadFile(file: File): Promise<string> {
  const type = (['image/jpeg', 'image/png', 'application/pdf'].includes(file.type) ? file.type : 'image/jpeg') as KycType;
  return uploadKycFile(file.name.slice(0, 100) || 'upload', type, await fileToBase64(file));
}
